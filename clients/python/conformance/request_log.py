"""Step 22 of the conformance scenario (clients/README.md): the request log. The create of step 2 is found by its
``Request-Id`` through the filters (``method``, ``status``, ``created[gte]``), then retrieved with its body."""
import json
from datetime import datetime, timedelta, timezone

from every_resource import ok, wait_for


def run(plinth, *, first_request_id):
    since = datetime.now(timezone.utc) - timedelta(hours=1)
    found = wait_for("the create of step 2 in the request log", 10, lambda: next(
        (r for r in plinth.requests.list(method="POST", status=200, created={"gte": since}, limit=100) if r.id == first_request_id), None))
    assert found.route == "/v1/fintech/accounts", found.route
    entry = plinth.requests.retrieve(first_request_id)
    assert (entry.id, entry.method, entry.status, entry.source) == (first_request_id, "POST", 200, "api"), entry
    sent = json.loads(entry.body or "{}")
    assert (sent.get("type"), sent.get("country")) == ("business", "US"), entry.body
    page = plinth.requests.list_page(limit=1, created={"gte": "2000-01-01T00:00Z"})
    assert len(page.data) == 1 and page.has_more is True, page
    ok("22 the request log: list with filters, retrieve")
