"""Runs scim2-tester (pinned in python-peers.txt) against a SCIM service provider and prints its
results as one JSON document on stdout: each check's title, status, reason, tags and resource type.

Usage: scim2-conformance.py <base URL of /scim/v2> <bearer token>
The caller (server/src/routes/scim/conformance.test.ts) decides which statuses fail the run.
"""

import json
import sys

from httpx2 import Client
from scim2_client.engines.httpx2 import SyncSCIMClient
from scim2_tester import check_server


def main() -> int:
    base_url, token = sys.argv[1], sys.argv[2]
    http = Client(base_url=base_url, headers={"Authorization": f"Bearer {token}"}, timeout=30)
    client = SyncSCIMClient(http)
    results = check_server(client, raise_exceptions=False)
    out = [
        {
            "title": r.title,
            "status": r.status.name,
            "reason": r.reason,
            "tags": sorted(r.tags),
            "resourceType": r.resource_type,
        }
        for r in results
    ]
    json.dump(out, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
