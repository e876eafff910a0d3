package dev.plinth.conformance;

import static dev.plinth.conformance.ScriptedTest.check;
import static dev.plinth.conformance.ScriptedTest.client;
import static dev.plinth.conformance.ScriptedTest.test;

import dev.plinth.CreatedApiKey;
import dev.plinth.Plinth;
import dev.plinth.client.model.CreateApiKeyRequest;
import dev.plinth.client.model.CreateApiKeyRequestPermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a key create sends with permissions, and a restricted key's permissions as decoded, against the scripted server. */
final class ScriptedKeys {
  private ScriptedKeys() {}

  static final String KEY = "{\"id\":\"key_1\",\"object\":\"api_key\",\"mode\":\"sandbox\",\"hint\":\"rk_test_…abcd\","
      + "\"name\":\"Reporting\",\"livemode\":false,\"created_at\":\"2026-11-22T10:53Z\",\"revoked_at\":null,"
      + "\"last_used_at\":null,\"permissions\":{\"accounts\":\"read\",\"transfers\":\"none\",\"transactions\":\"read\","
      + "\"sandbox\":\"none\",\"events\":\"none\",\"webhook_endpoints\":\"none\",\"api_keys\":\"none\",\"requests\":\"none\",\"payments\":\"none\"}";

  static void run() {
    test("a key create sends its permissions as given; a restricted key's permissions decode", () -> {
      ScriptedTest.Reply restricted = new ScriptedTest.Reply(200, KEY + ",\"key\":\"rk_test_abcd\"}", Map.of(), 0);
      String full = KEY.replaceFirst("\"permissions\":\\{[^}]*}", "\"permissions\":null") + "}";
      ScriptedTest.Reply fullKey = new ScriptedTest.Reply(200, full, Map.of(), 0);
      try (ScriptedTest.Scripted s = new ScriptedTest.Scripted(restricted, restricted, restricted, fullKey, fullKey)) {
        Plinth p = client(s.url());
        Map<String, String> readOnly = new LinkedHashMap<>();
        readOnly.put("accounts", "read");
        readOnly.put("transactions", "read");
        CreatedApiKey k = p.apiKeys().create("sandbox", "Reporting", readOnly);
        p.apiKeys().create(null, null, Map.of("ledgers", "admin"));
        p.apiKeys().create(new CreateApiKeyRequest().permissions(
            new CreateApiKeyRequestPermissions().transfers(CreateApiKeyRequestPermissions.TransfersEnum.WRITE)));
        p.apiKeys().create(null, "CI", null);
        var fullRead = p.apiKeys().retrieve("key_1");
        List<String> sent = new ArrayList<>();
        for (ScriptedTest.Seen x : s.seen) sent.add(x.body);
        sent.remove(sent.size() - 1); // the retrieve's
        List<String> expected = List.of(
            "{\"mode\":\"sandbox\",\"name\":\"Reporting\",\"permissions\":{\"accounts\":\"read\",\"transactions\":\"read\"}}",
            "{\"permissions\":{\"ledgers\":\"admin\"}}",
            "{\"permissions\":{\"transfers\":\"write\"}}",
            "{\"name\":\"CI\"}");
        check(sent.equals(expected), "sent " + sent);
        check(k.getKey().startsWith("rk_test_") && "read".equals(k.getPermissions().getAccounts())
            && "none".equals(k.getPermissions().getTransfers()), "created " + k.getPermissions());
        check("key_1".equals(fullRead.getId()) && fullRead.getPermissions() == null, "a full key: " + fullRead);
      }
    });
  }
}
