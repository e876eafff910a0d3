package dev.plinth;

import dev.plinth.client.model.CreateApiKeyRequest;
import dev.plinth.client.model.CreateApiKeyRequestPermissions;
import java.util.Map;

/**
 * API keys of the caller's organisation: {@code /v1/api_keys}. The operations are generated
 * ({@link ApiKeysOperations}); this adds {@code create} from plain values.
 */
public final class ApiKeys extends ApiKeysOperations {
  ApiKeys(Plinth plinth) { super(plinth); }

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
}
