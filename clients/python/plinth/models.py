"""``plinth.models``: the API's models (the generated ``plinth_generated.models``), for imports and type hints:
``from plinth.models import Account, AccountStatement``. Every time an answer carries is an aware ``datetime`` in UTC
(``account.created_at``), and a statement's ``from`` is ``from_`` (a Python keyword; clients/python/client.json).
Answers that carry a secret come as the subclasses ``plinth.NewApiKey`` and ``plinth.WebhookEndpointWithSecret``
(secrets.py), which type it ``str``."""
from plinth_generated import models as _generated
from plinth_generated.models import *  # noqa: F401,F403  (every model, under its own name)

__all__ = sorted(name for name, value in vars(_generated).items() if isinstance(value, type) and not name.startswith("_"))
