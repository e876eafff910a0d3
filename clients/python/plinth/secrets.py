"""The answers that carry a secret, with the secret as a plain ``str``.

A sign-up's and a key create's ``key``, a created or rotated webhook endpoint's ``secret`` and a new account number's
``account_number`` are in every first answer. The server never stores a secret, so the idempotent replay of such a
create (the same ``Idempotency-Key`` again) carries ``None`` there. These subclasses of the generated models say
``str``, and on a replay (``replayed`` is True) reading the secret raises ReplayedSecretError instead of handing back
``None``: no caller has to check for it, and none gets it by surprise. (``accountNumbers.create`` answers
secrets.AccountNumber; every other read of an account number answers the generated model, ``account_number`` None.)
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, TypeVar

from pydantic import BaseModel, PrivateAttr

from plinth_generated import models

M = TypeVar("M", bound=BaseModel)


class ReplayedSecretError(Exception):
    """Reading the secret of an idempotent replay: keep the one from the first answer."""

    def __init__(self, field: str, request_id: Optional[str]) -> None:
        super().__init__(
            f"the {field} is shown only in the first answer: this one ({request_id}) is the idempotent replay of an "
            "earlier request with the same Idempotency-Key, and the server keeps no copy of a secret"
        )
        #: ``key`` or ``secret``.
        self.field = field
        self.request_id = request_id


def _secret_property(field: str) -> property:
    def read(model: Any) -> str:
        value = model.__dict__.get(field)
        if not isinstance(value, str):
            raise ReplayedSecretError(field, model._request_id)
        return value

    return property(read, doc=f"The {field}, a str; raises ReplayedSecretError on an idempotent replay.")


class NewApiKey(models.NewApiKey):
    """A new key; ``key`` (``sk_test_…``, ``sk_live_…``) is shown this once: store it now."""

    if TYPE_CHECKING:
        key: str  # what type checkers see; at run time, the property set below the class

    _replayed: bool = PrivateAttr(default=False)
    _request_id: Optional[str] = PrivateAttr(default=None)

    @property
    def replayed(self) -> bool:
        """True when this answer is the replay of an earlier create with the same Idempotency-Key."""
        return self._replayed

    def to_dict(self) -> dict[str, Any]:
        # The generated to_dict reads self.key, which raises on a replay: serialise what the server sent instead.
        return models.NewApiKey.model_construct(_fields_set=self.model_fields_set, **self.__dict__).to_dict()


class SandboxSignup(models.SandboxSignup):
    """A new sandbox organisation and its first key (a sign-up is never a replay)."""

    api_key: NewApiKey  # type: ignore[assignment]


class WebhookEndpointWithSecret(models.WebhookEndpointWithSecret):
    """A created or rotated endpoint; ``secret`` (``whsec_…``) signs its deliveries: keep it."""

    if TYPE_CHECKING:
        secret: str

    _replayed: bool = PrivateAttr(default=False)
    _request_id: Optional[str] = PrivateAttr(default=None)

    @property
    def replayed(self) -> bool:
        """True when this answer is the replay of an earlier request with the same Idempotency-Key."""
        return self._replayed

    def to_dict(self) -> dict[str, Any]:
        return models.WebhookEndpointWithSecret.model_construct(_fields_set=self.model_fields_set, **self.__dict__).to_dict()


class AccountNumber(models.AccountNumber):
    """A new account number; ``account_number`` (12 digits) is shown this once, later reads show its last four."""

    if TYPE_CHECKING:
        account_number: str

    _replayed: bool = PrivateAttr(default=False)
    _request_id: Optional[str] = PrivateAttr(default=None)

    @property
    def replayed(self) -> bool:
        """True when this answer is the replay of an earlier create with the same Idempotency-Key."""
        return self._replayed

    def to_dict(self) -> dict[str, Any]:
        return models.AccountNumber.model_construct(_fields_set=self.model_fields_set, **self.__dict__).to_dict()


# Set after the class is made: pydantic drops a property of the class body that has the name of a field. A
# property (a data descriptor) wins over the instance's __dict__, where pydantic keeps the value it validated,
# so model_dump, repr and equality still see what the server sent.
NewApiKey.key = _secret_property("key")  # type: ignore[method-assign,assignment]
WebhookEndpointWithSecret.secret = _secret_property("secret")  # type: ignore[method-assign,assignment]
AccountNumber.account_number = _secret_property("account_number")  # type: ignore[method-assign,assignment]


def with_secret(cls: type[M], value: Any, client: Any) -> M:
    """The generated answer as ``cls``, marked with the client's last Request-Id and replay flag."""
    result = cls.model_validate(value.model_dump())
    for model in (result, getattr(result, "api_key", None)):
        if model is not None and hasattr(model, "_replayed"):
            model._replayed = client.last_replayed
            model._request_id = client.last_request_id
    return result
