"""Verifying a webhook delivery (docs/api.md#webhooks, Standard Webhooks v1) with the standard library's ``hmac``.

    event = Webhook.verify(secret, request.headers, raw_body)  # raises WebhookVerificationError

``raw_body`` must be the exact bytes received (``bytes`` or ``str``), not a re-serialised parse of them.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import time
from collections.abc import Mapping

from plinth_generated.models import Event

__all__ = ["Webhook", "WebhookVerificationError"]


class WebhookVerificationError(Exception):
    """Why a delivery was refused; ``reason`` is one of ``missing_headers``, ``timestamp_invalid``,
    ``timestamp_too_old``, ``timestamp_too_new``, ``secret_invalid``, ``signature_mismatch``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def _header(headers: Mapping[str, str], name: str) -> str | None:
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return None


class Webhook:
    @staticmethod
    def verify(secret: str, headers: Mapping[str, str], raw_body: bytes | str, tolerance: int = 300,
               now: int | None = None) -> Event:
        """Checks that ``webhook-timestamp`` is within ``tolerance`` seconds of now and that one of the ``v1,``
        signatures is the HMAC-SHA256, keyed with the decoded ``whsec_`` secret, of ``<id>.<timestamp>.<body>``;
        returns the parsed event."""
        msg_id = _header(headers, "webhook-id")
        timestamp = _header(headers, "webhook-timestamp")
        signatures = _header(headers, "webhook-signature")
        if not msg_id or not timestamp or not signatures:
            raise WebhookVerificationError("missing_headers", "webhook-id, webhook-timestamp and webhook-signature are required")
        if not timestamp.isascii() or not timestamp.isdigit():
            raise WebhookVerificationError("timestamp_invalid", "webhook-timestamp is not unix seconds")
        current = int(time.time()) if now is None else now
        if int(timestamp) < current - tolerance:
            raise WebhookVerificationError("timestamp_too_old", "webhook-timestamp is too old")
        if int(timestamp) > current + tolerance:
            raise WebhookVerificationError("timestamp_too_new", "webhook-timestamp is in the future")
        try:
            key = base64.b64decode(secret.removeprefix("whsec_"), validate=True)
        except (binascii.Error, ValueError) as error:
            raise WebhookVerificationError("secret_invalid", "the secret is not whsec_ followed by base64") from error
        body = raw_body.encode("utf-8") if isinstance(raw_body, str) else raw_body
        digest = hmac.new(key, f"{msg_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
        expected = base64.b64encode(digest).decode("ascii")
        matched = False
        for candidate in signatures.split(" "):
            version, _, signature = candidate.partition(",")
            if version == "v1" and hmac.compare_digest(signature.encode(), expected.encode()):
                matched = True
        if not matched:
            raise WebhookVerificationError("signature_mismatch", "no webhook-signature matches the body")
        return Event.from_json(body.decode("utf-8"))
