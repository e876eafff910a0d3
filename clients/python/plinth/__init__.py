"""The Plinth API for Python ≥ 3.10. See clients/README.md for an example."""
from plinth_generated import models

from .client import Plinth
from .errors import PlinthError
from .retry import RetryInfo
from .webhooks import Webhook, WebhookVerificationError

__all__ = ["Plinth", "PlinthError", "RetryInfo", "Webhook", "WebhookVerificationError", "models"]
