"""``plinth.api_keys``: /v1/api_keys."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Mapping, Optional

from plinth_generated.api.api_keys_api import APIKeysApi
from plinth_generated.models import ApiKey, ApiKeyList, CreateApiKeyRequest, CreateApiKeyRequestPermissions

from .pagination import pages
from .secrets import NewApiKey, with_secret

if TYPE_CHECKING:
    from .client import Plinth


class ApiKeys:
    def __init__(self, client: Plinth, api: APIKeysApi) -> None:
        self._client = client
        self._api = api

    def create(self, *, mode: Optional[str] = None, name: Optional[str] = None, permissions: Optional[Mapping[str, str]] = None, idempotency_key: Optional[str] = None) -> NewApiKey:
        """A new key; ``.key`` is its secret, a ``str`` shown this once. ``mode`` (``sandbox``, ``live``) defaults
        to the calling key's; ``name`` is a label for people. ``permissions`` makes a restricted key (``rk_test_…``,
        ``rk_live_…``): group → ``"none"``, ``"read"`` or ``"write"``, e.g. ``{"accounts": "read"}``; a group left
        out is none. Without it, a full key (``sk_…``), whose ``.permissions`` is None."""
        given = {"mode": mode, "name": name}
        if permissions is not None:
            given["permissions"] = CreateApiKeyRequestPermissions.from_dict(dict(permissions))
        body = CreateApiKeyRequest(**{k: v for k, v in given.items() if v is not None})
        created = self._client._call(lambda key: self._api.create_api_key_with_http_info(idempotency_key=key, create_api_key_request=body, _request_timeout=self._client.timeout), idempotency_key, post=True)
        return with_secret(NewApiKey, created, self._client)

    def retrieve(self, id: str) -> ApiKey:
        return self._client._call(lambda _key: self._api.retrieve_api_key_with_http_info(id, _request_timeout=self._client.timeout))

    def list(self, *, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> Iterator[ApiKey]:
        """Every key of the caller's mode, newest first."""
        return pages(lambda after, before: self.list_page(limit=limit, starting_after=after, ending_before=before), starting_after, ending_before)

    def list_page(self, *, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> ApiKeyList:
        return self._client._call(lambda _key: self._api.list_api_keys_with_http_info(limit=limit, starting_after=starting_after, ending_before=ending_before, _request_timeout=self._client.timeout))

    def revoke(self, id: str, *, idempotency_key: Optional[str] = None) -> ApiKey:
        """Stops the key working at once; harmless to repeat."""
        return self._client._call(lambda key: self._api.revoke_api_key_with_http_info(id, idempotency_key=key, _request_timeout=self._client.timeout), idempotency_key, post=True)
