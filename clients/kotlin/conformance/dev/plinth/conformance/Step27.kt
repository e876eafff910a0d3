package dev.plinth.conformance

import dev.plinth.Plinth
import dev.plinth.client.models.AuditChainLink
import java.security.KeyFactory
import java.security.Signature
import java.security.spec.X509EncodedKeySpec
import java.util.Base64

/** The DER prefix of an X.509 SubjectPublicKeyInfo holding a raw 32-byte Ed25519 key (RFC 8410). */
private val ED25519_SPKI = parseHex("302a300506032b6570032100")

private fun parseHex(hex: String): ByteArray = ByteArray(hex.length / 2) { hex.substring(2 * it, 2 * it + 2).toInt(16).toByte() }

private fun hex(bytes: ByteArray): String = bytes.joinToString("") { "%02x".format(it) }

/**
 * Step 27 of the scenario: the audit chain. A write, then the signed checkpoint; the whole chain paged with `after`
 * (oldest first) ends where the checkpoint says, at its `size` with its `hash`; the note's three lines name the same
 * chain, and its signature verifies with the public key (the JDK's Ed25519, looked up by name: Java 15+).
 */
internal fun auditStep(plinth: Plinth) {
    step("27 audit: the chain paged with after matches the signed checkpoint and its key") {
        plinth.accounts.create(business("US"))
        val checkpoint = plinth.audit.retrieveCheckpoint()
        val links = mutableListOf<AuditChainLink>()
        var after = 0L
        while (true) {
            val page = plinth.audit.listChain(after, 7)
            links += page.`data`
            if (!page.hasMore) break
            after = page.`data`.last().sequence
        }
        check(links.map { it.sequence } == (1L..links.size.toLong()).toList()) { "sequences ${links.map { it.sequence }}" }
        check(links.size.toLong() == checkpoint.propertySize) { "${links.size} links, size ${checkpoint.propertySize}" }
        check(links.last().hash == checkpoint.hash) { "the last hash ${links.last().hash}, checkpoint ${checkpoint.hash}" }

        val key = plinth.audit.retrievePublicKey()
        check(key.algorithm == "ed25519") { "algorithm ${key.algorithm}" }
        check(key.verifierKey.startsWith("plinth+${key.keyId}+")) { key.verifierKey }
        val note = checkpoint.note
        val text = note.substring(0, note.indexOf("\n\n") + 1)
        val hash = Base64.getEncoder().encodeToString(parseHex(checkpoint.hash))
        check(text.split("\n").take(3) == listOf(checkpoint.origin, checkpoint.propertySize.toString(), hash)) { text }
        val prefix = "\u2014 ${key.name} "
        val line = note.substring(text.length + 1).split("\n").firstOrNull { it.startsWith(prefix) }
        check(line != null) { "no signature line in $note" }
        val signed = Base64.getDecoder().decode(line!!.substring(prefix.length))
        check(signed.size == 68 && hex(signed.copyOf(4)) == key.keyId) { "signature line $line" }
        val publicKey = KeyFactory.getInstance("Ed25519")
            .generatePublic(X509EncodedKeySpec(ED25519_SPKI + Base64.getDecoder().decode(key.publicKey)))
        val verifier = Signature.getInstance("Ed25519")
        verifier.initVerify(publicKey)
        verifier.update(text.toByteArray(Charsets.UTF_8))
        check(verifier.verify(signed.copyOfRange(4, 68))) { "the note's signature does not verify" }
    }
}
