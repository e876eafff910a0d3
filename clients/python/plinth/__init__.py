"""The Plinth API for Python ≥ 3.10. See README.md for an example."""
from . import models  # plinth.models: the generated models, importable (from plinth.models import Account)
from .client import Plinth
from .errors import PlinthError
from .filters import Created, CreatedBound, MetadataUpdate
from .retry import RetryInfo
from .secrets import NewApiKey, ReplayedSecretError, SandboxSignup, WebhookEndpointWithSecret
from .webhooks import Webhook, WebhookVerificationError

__all__ = [
    "Created",
    "CreatedBound",
    "MetadataUpdate",
    "NewApiKey",
    "Plinth",
    "PlinthError",
    "ReplayedSecretError",
    "RetryInfo",
    "SandboxSignup",
    "Webhook",
    "WebhookEndpointWithSecret",
    "WebhookVerificationError",
    "models",
]
