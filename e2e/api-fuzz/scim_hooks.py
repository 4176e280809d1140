"""Schemathesis hooks for the SCIM pass: about half of the cases of an operation on one user or group
(GET, PUT and PATCH of /Users/{id} and /Groups/{id}) name a user or group that exists in the
connection's tenant, so those cases reach the resource and its validation instead of answering 404.
DELETE keeps its generated ids, so the two resources live through the pass. Every other call of an
operation is pointed there (one worker calls in order), so a run stays reproducible from its seed.
"""
import os
from collections import Counter

import schemathesis

TARGETS = {
    "/scim/v2/Users/{id}": os.environ["FUZZ_SCIM_USER_ID"],
    "/scim/v2/Groups/{id}": os.environ["FUZZ_SCIM_GROUP_ID"],
}
calls = Counter()


@schemathesis.hook
def before_call(context, case, kwargs):
    target = TARGETS.get(case.operation.path)
    if target is None or case.method.upper() == "DELETE" or not isinstance(case.path_parameters, dict):
        return
    key = (case.method.upper(), case.operation.path)
    calls[key] += 1
    if calls[key] % 2 == 1:
        case.path_parameters["id"] = target
