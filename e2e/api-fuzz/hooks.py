"""Schemathesis hooks for the authenticated pass: an admin's bearer token, renewed by signing in.

The fuzzer may end the admin's session itself (sign-out, "sign out all sessions"), so the token is
fetched again every few seconds instead of being fixed for the whole run. Never retried on a 401:
many operations answer 401 to bad input on purpose.
"""
import os

import requests
import schemathesis

BASE = os.environ["FUZZ_BASE_URL"]
EMAIL = os.environ["FUZZ_ADMIN_EMAIL"]
PASSWORD = os.environ["FUZZ_ADMIN_PASSWORD"]


@schemathesis.auth(refresh_interval=10, retry_on=[])
class AdminBearer:
    def get(self, case, context):
        response = requests.post(
            f"{BASE}/identity/resources/auth/v1/user",
            json={"email": EMAIL, "password": PASSWORD},
            timeout=10,
        )
        response.raise_for_status()
        return response.json()["accessToken"]

    def set(self, case, data, context):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"


@schemathesis.hook
def before_call(context, case, kwargs):
    """Never confirm a self-lockout: an IP restriction the admin confirmed would shut this very admin
    out (the fuzzer calls from 127.0.0.1), and every later case would test the refusal instead of the
    operation. Without the confirmation such a save is answered 409 (documented), and nothing changes."""
    if isinstance(case.body, dict):
        case.body.pop("confirmSelfLockout", None)
    if isinstance(case.query, dict):
        case.query.pop("confirmSelfLockout", None)
