"""Schemathesis hooks for scripts/fuzz.ts (loaded through SCHEMATHESIS_HOOKS).

Two things a fuzzer cannot know from any schema, each kept as narrow as the contract rule behind it:

1. An Idempotency-Key is one request's identity (docs/api.md#safe-retries-idempotency-key): the same key with another request is
   rightly refused (422 idempotency_key_reused). Hypothesis and the coverage phase draw few distinct strings ("0",
   "00", ...), so the key of every schema-valid request is made unique just before it is sent (`before_call`).
   Schema-violating requests are sent as drawn: changing one would make Schemathesis judge it anew (a request
   without its Authorization header would turn valid, and be sent with the key).
2. Some refusals of a schema-valid request are the contract's own rules between a request and the server's state
   or another field, which JSON Schema cannot state. Such a "schema-valid request rejected" failure is dropped, and
   only when the server's answer names exactly that rule (its code and param); any other refusal still fails.

And one input no schema generator draws: a lone UTF-16 surrogate (issue 30, finding 5). Hypothesis leaves category
Cs out of its text, and a lone surrogate in metadata was a 500 on PostgreSQL. `flatmap_body` puts one into a string
or a key of about one body in eight; the server must refuse it as 400 parameter_invalid naming that field, which
`filter_failure` accepts as the rule it is, and nothing else.

With a restricted key (`scripts/fuzz.ts --restricted`), `after_call` records each operation refused for the key's
permission (403 permission_denied, docs/api.md#restricted-keys); the run checks that they are exactly the
operations the key may not call.
"""

import itertools
import os
import json
import re
import uuid

import schemathesis
from hypothesis import strategies as st

_VALID_KEY = re.compile(r"^[\x21-\x7e]{1,255}\Z")
# Unique across the run's several Schemathesis processes, which share one server.
_RUN = uuid.uuid4().hex[:8]
_SEQUENCE = itertools.count(1)
# Every failure dropped below, with the rule that explains it, one line each; scripts/fuzz.ts prints the counts.
_ACCEPTED = os.path.join(os.getcwd(), "accepted-refusals.txt")
# Every operation refused for the key's permission (docs/api.md#restricted-keys), one line each: with a restricted key
# (scripts/fuzz.ts --restricted) the run checks that exactly the operations the key may not call are in it.
_DENIED = os.path.join(os.getcwd(), "permission-denied.txt")


@schemathesis.hook
def before_call(context, case, kwargs):
    # A body spoilt by `flatmap_body` below is refused while it is read, before its key is looked at, so its key needs
    # no change. And it must not reach `case.meta`: Schemathesis revalidates the case there, and its validator cannot
    # encode a lone surrogate (UnicodeEncodeError, which failed a stateful run).
    if _has_lone(case.body):
        return
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return
    for name, value in list((case.headers or {}).items()):
        if name.lower() == "idempotency-key" and isinstance(value, str) and _VALID_KEY.match(value):
            suffix = f"~{_RUN}.{next(_SEQUENCE)}"
            case.headers[name] = value[: 255 - len(suffix)] + suffix


@schemathesis.hook
def after_call(context, case, response):
    if response.status_code != 403:
        return
    try:
        problem = response.json()
    except ValueError:
        return
    if isinstance(problem, dict) and problem.get("code") == "permission_denied":
        if str(problem.get("detail", "")).startswith("This key has "):
            with open(_DENIED, "a", encoding="utf-8") as denied:
                denied.write(f"{case.method.upper()} {case.operation.path}\n")


_LONE = ("\ud800", "\udbff", "\udc00", "\udfff")


def _strings(body, at=()):
    """The path of every string in a body, and of every key (marked by a trailing None)."""
    if isinstance(body, str):
        yield at
    elif isinstance(body, dict):
        for key, value in body.items():
            yield (*at, key, None)
            yield from _strings(value, (*at, key))
    elif isinstance(body, list):
        for i, value in enumerate(body):
            yield from _strings(value, (*at, i))


def _with_lone(body, at, lone):
    """A copy of the body with `lone` added to the string (or the key) at `at`."""
    if not at:
        return body + lone
    head, rest = at[0], at[1:]
    if rest == (None,):
        return {(k + lone if k == head else k): v for k, v in body.items()}
    copy = list(body) if isinstance(body, list) else dict(body)
    copy[head] = _with_lone(body[head], rest, lone)
    return copy


# The phase this Schemathesis process runs (scripts/fuzz.ts runs one process per phase).
_PHASE = os.environ.get("PLINTH_FUZZ_PHASE", "")


@schemathesis.hook
def flatmap_body(context, body):
    # Not in the stateful phase: there Schemathesis revalidates a case whose body a link filled in, with a validator
    # (jsonschema_rs) that cannot encode a lone surrogate, and the whole phase errors (UnicodeEncodeError). The other
    # phases send such bodies to every operation that takes one.
    if _PHASE == "stateful":
        return st.just(body)
    paths = list(_strings(body)) if isinstance(body, dict) else []
    if not paths:
        return st.just(body)
    spoilt = st.tuples(st.sampled_from(paths), st.sampled_from(_LONE)).map(lambda p: _with_lone(body, *p))
    return st.integers(0, 7).flatmap(lambda n: spoilt if n == 0 else st.just(body))


def _has_lone(value):
    if isinstance(value, str):
        return any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, dict):
        return any(_has_lone(k) or _has_lone(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_lone(v) for v in value)
    return False


def _names_lone(body, param):
    """Whether `param` (a dotted path; a key holding a surrogate is named with U+FFFD) leads to a lone surrogate.

    A key may itself hold a dot (metadata keys are free), so each key of an object is tried as the path's next part.
    """
    if isinstance(body, list):
        head, _, rest = param.partition(".")
        if head.isdigit() and int(head) < len(body):
            value = body[int(head)]
            return _has_lone(value) if rest == "" and isinstance(value, str) else bool(rest) and _names_lone(value, rest)
        return False
    if not isinstance(body, dict):
        return False
    for key, value in body.items():
        shown = key.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        if param == shown:
            return _has_lone(key) or (isinstance(value, str) and _has_lone(value))
        if param.startswith(shown + ".") and (_has_lone(key) or _names_lone(value, param[len(shown) + 1 :])):
            return True
    return False


# Operations whose `amount` is credited to an account: a valid amount can still take a balance past
# 9007199254740991, the most an account holds (docs/api.md#moving-money-transfers-transactions-and-sandbox-simulations), which depends on the balance, not the request.
_CREDITS = {"POST /v1/fintech/transfers", "POST /v1/sandbox/fintech/accounts/{id}/deposits"}
# Operations that take a webhook URL: what a URL parser accepts is no regular expression, and where its host resolves
# (here, offline, nowhere) is a fact about the network, not about the request.
_ENDPOINT_WRITES = {"POST /v1/webhook_endpoints", "POST /v1/webhook_endpoints/{id}"}


def _at(body, dotted):
    """The value at a dotted param of a body, or None."""
    for name in dotted.split("."):
        if not isinstance(body, dict) or name not in body:
            return None
        body = body[name]
    return body


# What starts a key or a signing secret, in any case (x-no-secret: src/platform/http/validation.ts).
_KEY_START = re.compile(r"(sk|rk)_(live|test)_|whsec_", re.IGNORECASE)


def _contract_rule(case, problem):
    """The contract rule no schema can state that this refusal applies, or None."""
    code, param = problem.get("code"), problem.get("param")
    operation = f"{case.method.upper()} {case.operation.path}"
    body = case.body if isinstance(case.body, dict) else {}
    query = case.query or {}
    # JSON Schema counts 117.0 as an integer; Plinth decides on the JSON text (a float is sent as 117.0 or 1e2):
    # the same rule as for integers in query strings, whatever JSON.parse would round it to (issue 23, finding 4).
    if code == "parameter_invalid" and isinstance(param, str) and isinstance(_at(body, param), float):
        return "an integer is written without a fraction or an exponent (section 1)"
    if code == "parameter_invalid" and param in ("starting_after", "ending_before") and param in query:
        return "a cursor must be an object this key can see, one cursor at a time (section 4)"
    if (
        operation == "POST /v1/fintech/transfers"
        and code == "parameter_invalid"
        and param == "to_account_id"
        and body.get("from_account_id") == body.get("to_account_id")
    ):
        return "a transfer moves money between two different accounts (section 10)"
    if operation in _CREDITS and code == "parameter_invalid" and param == "amount":
        return "no balance goes past 9007199254740991 (section 10)"
    bound = re.fullmatch(r"created\[(gte|gt|lte|lt)\]", param or "")
    created = query.get("created") if isinstance(query.get("created"), dict) else {}
    if (
        code == "parameter_invalid"
        and bound
        and "-02-29T" in str(query.get(param) or created.get(bound.group(1), ""))
    ):
        return "February 29th exists only in a leap year, which the time pattern leaves out (section 15)"
    if operation == "POST /v1/fintech/accounts" and code == "country_unsupported":
        return "which real countries are served is configuration (section 4)"
    # A key of a free-form object (a restricted key's permissions take any group name, so that an unknown one is named
    # in the 400) may hold anything JSON Schema allows, but no body holds a NUL character anywhere (the wire).
    if code == "body_malformed" and _has_nul(case.body):
        return "no body holds a NUL character, in a value or in a key (the wire)"
    if code == "parameter_invalid" and isinstance(param, str) and _names_lone(body, param):
        return "every string the API takes is well-formed Unicode: no lone UTF-16 surrogate (wire basics)"
    if operation == "GET /v1/fintech/accounts/{id}/balances" and code == "parameter_invalid" and param == "at":
        return "a balance is of a moment the account existed at; one after now is read as now (balances over time)"
    if (
        operation == "GET /v1/fintech/accounts/{id}/statement"
        and code == "parameter_invalid"
        and param in ("from", "to")
    ):
        return "a statement's period starts by now and before it ends (a to after now is now), at most 366 days"
    if operation == "POST /v1/fintech/transfers/{id}/reversals" and code == "parameter_invalid" and param == "amount":
        return "a reversal moves back at most what remains of its transfer (correcting a transfer)"
    if operation == "GET /v1/events/stream" and code == "parameter_invalid" and param in ("last-event-id", "after"):
        return "a resume point is a sequence already numbered, which only the server knows (the live event stream)"
    if (
        code == "parameter_invalid"
        and isinstance(param, str)
        and param.startswith("metadata")
        and _KEY_START.search(json.dumps(body.get("metadata"), ensure_ascii=False) or "")
    ):
        return "metadata holds no key or signing secret, nor the start of one (x-no-secret, metadata)"
    if operation in _ENDPOINT_WRITES and code == "parameter_invalid" and param == "url":
        return "a webhook URL is parsed (WHATWG URL) and its host resolved to a public address (section 12)"
    return _payments_rule(operation, code, param, body)


def _aba_check_digit_fails(value):
    """Whether a 9-digit string fails the ABA check (3, 7, 1 weights; the sum a multiple of 10)."""
    if not isinstance(value, str) or not re.fullmatch(r"[0-9]{9}", value):
        return False
    return sum(int(d) * w for d, w in zip(value, (3, 7, 1) * 3)) % 10 != 0


def _payments_rule(operation, code, param, body):
    """The rules of money in and out (section 21) that no schema states, each checked against the request."""
    if code != "parameter_invalid":
        return None
    if param == "routing_number" and operation == "POST /v1/fintech/external_accounts":
        if _aba_check_digit_fails(body.get("routing_number")):
            return "a routing number's last digit is the ABA check digit of the other eight (section 21)"
    if operation == "POST /v1/sandbox/fintech/payments/{id}/notification_of_change" and param == "corrected_data":
        routing = str(body.get("corrected_data", "")).split(" ")[0]
        if body.get("code") in ("C02", "C03") and _aba_check_digit_fails(routing):
            return "a routing number's last digit is the ABA check digit of the other eight (section 21)"
        if body.get("code") in ("C01", "C02", "C03"):
            return "a notification of change's corrected data has the shape of what its code changes (section 21)"
    if operation == "POST /v1/sandbox/fintech/payment_rules" and param == "action":
        rail = (body.get("match") or {}).get("rail")
        action = body.get("action") or {}
        if ("return" in action and rail in ("wire", "rtp")) or ("reject" in action and rail == "ach"):
            return "ACH payments are returned, wire and RTP ones rejected (section 21)"
    if operation == "POST /v1/sandbox/fintech/payment_rules" and param == "action.at":
        return "a rule's duration after settlement is from PT1M to P60D, which the ISO 8601 pattern leaves open (section 21)"
    if operation == "POST /v1/sandbox/fintech/inbound_payments" and param == "rail":
        if body.get("direction") == "debit" and body.get("rail") != "ach":
            return "only ACH pulls money by debit (section 21)"
    if operation == "POST /v1/sandbox/clock/advance" and param == "to":
        return "the sandbox clock only moves forward, at most ten years at a time, from a now only the server knows (section 21)"
    return None


def _has_nul(value):
    """Whether a NUL character stands anywhere in a body: in a string or in a key, at any depth."""
    if isinstance(value, str):
        return "\u0000" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


@schemathesis.hook
def filter_failure(context, failure, case, response):
    if getattr(failure, "code", None) != "ST202" or response.status_code != 400:
        return True
    try:
        problem = response.json()
    except ValueError:
        return True
    rule = _contract_rule(case, problem) if isinstance(problem, dict) else None
    if rule is None:
        return True
    with open(_ACCEPTED, "a", encoding="utf-8") as accepted:
        accepted.write(f"{case.method.upper()} {case.operation.path}: {rule}\n")
    return False
