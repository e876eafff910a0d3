package dev.plinth;

import dev.plinth.client.ApiResponse;
import dev.plinth.client.api.ApiKeysApi;
import dev.plinth.client.model.ApiKey;
import dev.plinth.client.model.ApiKeyList;
import dev.plinth.client.model.CreateApiKeyRequest;
import dev.plinth.client.model.CreateApiKeyRequestPermissions;
import dev.plinth.client.model.NewApiKey;
import java.util.Map;

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

  /**
   * A key of {@code mode} ({@code "sandbox"}, {@code "live"}) named {@code name}, each optional (null); with
   * {@code permissions} (group → {@code "none"}, {@code "read"} or {@code "write"}, a group left out being none) a
   * restricted key, {@code rk_test_…}, that may do only that; without (null), a full key.
   */
  public CreatedApiKey create(String mode, String name, Map<String, String> permissions) {
    return create(mode, name, permissions, null);
  }

  public CreatedApiKey create(String mode, String name, Map<String, String> permissions, Plinth.RequestOptions options) {
    CreateApiKeyRequest body = new CreateApiKeyRequest().name(name).permissions(permissions(permissions));
    if (mode != null) body.mode(CreateApiKeyRequest.ModeEnum.fromValue(mode));
    return create(body, options);
  }

  /**
   * Every group and level as given: one newer than this client is sent too, and one the server does not know is its
   * 400 {@code parameter_invalid} naming {@code permissions.<group>}, not a value silently dropped.
   */
  private static CreateApiKeyRequestPermissions permissions(Map<String, String> permissions) {
    if (permissions == null) return null;
    CreateApiKeyRequestPermissions p = new CreateApiKeyRequestPermissions();
    permissions.forEach(p::putAdditionalProperty);
    return p;
  }

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
