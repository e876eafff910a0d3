package dev.plinth;

import dev.plinth.client.ApiResponse;
import dev.plinth.client.api.ApiKeysApi;
import dev.plinth.client.model.ApiKey;
import dev.plinth.client.model.ApiKeyList;
import dev.plinth.client.model.CreateApiKeyRequest;
import dev.plinth.client.model.NewApiKey;

/** API keys of the caller's organisation: {@code /v1/api_keys}. */
public final class ApiKeys {
  private final Plinth plinth;
  private final ApiKeysApi api;

  ApiKeys(Plinth plinth) {
    this.plinth = plinth;
    this.api = new ApiKeysApi(plinth.apiClient());
  }

  /** {@code createApiKey}: a key of the caller's mode, unnamed. Its secret is in the answer, once. */
  public CreatedApiKey create() { return create(null, null); }

  /** With a {@code mode} and a {@code name} (both optional: {@code new CreateApiKeyRequest().name("CI")}). */
  public CreatedApiKey create(CreateApiKeyRequest params) { return create(params, null); }

  public CreatedApiKey create(CreateApiKeyRequest params, Plinth.RequestOptions options) {
    // The generated call would send a null body as the JSON text `null`, which the server refuses: send `{}`.
    CreateApiKeyRequest body = params == null ? new CreateApiKeyRequest() : params;
    ApiResponse<NewApiKey> r = plinth.send(() -> api.createApiKeyWithHttpInfo(Plinth.key(options), body));
    return new CreatedApiKey(r.getData(), Plinth.replayed(r));
  }

  /** {@code retrieveApiKey}: the key without its secret. */
  public ApiKey retrieve(String id) {
    return plinth.call(() -> api.retrieveApiKeyWithHttpInfo(id));
  }

  /** {@code revokeApiKey}: it stops working at once ({@code revoked_at} set). */
  public ApiKey revoke(String id) { return revoke(id, null); }

  public ApiKey revoke(String id, Plinth.RequestOptions options) {
    return plinth.call(() -> api.revokeApiKeyWithHttpInfo(id, Plinth.key(options)));
  }

  /** {@code listApiKeys}: every key of the caller's mode, newest first, a page at a time. */
  public Iterable<ApiKey> list() { return list(null); }

  public Iterable<ApiKey> list(ListParams page) {
    return ListParams.paginate(page, this::listPage, ApiKeyList::getData, ApiKeyList::getHasMore, ApiKey::getId);
  }

  /** {@code listApiKeys}: one page. */
  public ApiKeyList listPage() { return listPage(null); }

  public ApiKeyList listPage(ListParams page) {
    ListParams p = ListParams.orDefault(page);
    return plinth.call(() -> api.listApiKeysWithHttpInfo(p.getLimit(), p.getStartingAfter(), p.getEndingBefore()));
  }
}
