package dev.plinth.conformance

import com.fasterxml.jackson.databind.ObjectMapper
import dev.plinth.client.models.CreateApiKeyRequest
import dev.plinth.client.models.CreateApiKeyRequestPermissions

private const val KEY = """{"id":"key_1","object":"api_key","mode":"sandbox","hint":"rk_test_…abcd","name":"Reporting",""" +
    """"livemode":false,"created_at":"2026-11-22T10:53Z","revoked_at":null,"last_used_at":null,"permissions":""" +
    """{"accounts":"read","transfers":"none","transactions":"read","sandbox":"none","events":"none",""" +
    """"webhook_endpoints":"none","api_keys":"none","requests":"none","payments":"none"}"""
private val FULL = KEY.replace(Regex(""""permissions":\{[^}]*}"""), """"permissions":null""") + "}"

/** What a key create sends with permissions, and a restricted key's permissions as decoded, against the scripted server. */
internal fun scriptedKeys() {
    test("a key create sends its permissions as given; a restricted key's permissions decode") {
        val restricted = Reply(200, "$KEY,\"key\":\"rk_test_abcd\"}")
        Scripted(restricted, restricted, restricted, Reply(200, FULL), Reply(200, FULL)).use { s ->
            val p = client(s.url)
            val k = p.apiKeys.create(mode = "sandbox", name = "Reporting", permissions = mapOf("accounts" to "read", "transactions" to "read"))
            p.apiKeys.create(permissions = mapOf("ledgers" to "admin"))
            p.apiKeys.create(CreateApiKeyRequest(permissions = CreateApiKeyRequestPermissions(transfers = CreateApiKeyRequestPermissions.Transfers.write)))
            p.apiKeys.create(name = "CI")
            val full = p.apiKeys.retrieve("key_1")
            val expected = listOf(
                """{"mode":"sandbox","name":"Reporting","permissions":{"accounts":"read","transactions":"read"}}""",
                """{"permissions":{"ledgers":"admin"}}""",
                """{"permissions":{"transfers":"write"}}""",
                """{"name":"CI"}""",
                "",
            )
            // As JSON values: the permissions model is a HashMap, whose entries come in no set order.
            val json = ObjectMapper()
            val sent = s.seen.map { it.body }
            check(sent.size == expected.size && sent.last() == "") { "sent $sent" }
            check(sent.zip(expected).dropLast(1).all { (a, b) -> json.readTree(a) == json.readTree(b) }) { "sent $sent" }
            check(k.key.startsWith("rk_test_") && k.permissions?.accounts == "read" && k.permissions?.transfers == "none") {
                "created ${k.permissions}"
            }
            check(full.id == "key_1" && full.permissions == null) { "a full key: $full" }
        }
    }
}
