package dev.plinth.conformance;

import dev.plinth.Plinth;
import dev.plinth.client.model.AuditChainLink;
import dev.plinth.client.model.AuditChainPage;
import dev.plinth.client.model.AuditCheckpoint;
import dev.plinth.client.model.AuditPublicKey;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * Step 27 of the scenario: the audit chain. A write, then the signed checkpoint; the whole chain paged with
 * {@code after} (oldest first) ends where the checkpoint says, at its {@code size} with its {@code hash}; the note's
 * three lines name the same chain, and its signature verifies with the public key (the JDK's Ed25519).
 */
final class Step27 {
  private Step27() {}

  /** The DER prefix of an X.509 SubjectPublicKeyInfo holding a raw 32-byte Ed25519 key (RFC 8410). */
  private static final byte[] ED25519_SPKI = parseHex("302a300506032b6570032100");

  // The library targets Java 11 (no java.util.HexFormat); Ed25519 is looked up by name, at run time (Java 15+).
  private static byte[] parseHex(String hex) {
    byte[] out = new byte[hex.length() / 2];
    for (int i = 0; i < out.length; i++) out[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    return out;
  }

  private static String hex(byte[] bytes) {
    StringBuilder out = new StringBuilder();
    for (byte b : bytes) out.append(String.format("%02x", b));
    return out.toString();
  }

  static void run(Plinth plinth) {
    Conformance.steps("27 audit: the chain paged with after matches the signed checkpoint and its key", () -> {
      plinth.accounts().create(Conformance.businessUS());
      AuditCheckpoint checkpoint = plinth.audit().retrieveCheckpoint();
      List<AuditChainLink> links = new ArrayList<>();
      for (long after = 0; ; ) {
        AuditChainPage page = plinth.audit().listChain(after, 7);
        links.addAll(page.getData());
        if (!page.getHasMore()) break;
        after = page.getData().get(page.getData().size() - 1).getSequence();
      }
      for (int i = 0; i < links.size(); i++)
        Conformance.ensure(links.get(i).getSequence() == i + 1, "link " + i + ": " + links.get(i).getSequence());
      Conformance.ensure(links.size() == checkpoint.getSize(), links.size() + " links, size " + checkpoint.getSize());
      Conformance.ensure(links.get(links.size() - 1).getHash().equals(checkpoint.getHash()), "the last hash");

      AuditPublicKey key = plinth.audit().retrievePublicKey();
      Conformance.ensure("ed25519".equals(key.getAlgorithm()), "algorithm " + key.getAlgorithm());
      Conformance.ensure(key.getVerifierKey().startsWith("plinth+" + key.getKeyId() + "+"), key.getVerifierKey());
      String note = checkpoint.getNote();
      String text = note.substring(0, note.indexOf("\n\n") + 1);
      String hash = Base64.getEncoder().encodeToString(parseHex(checkpoint.getHash()));
      Conformance.ensure(Arrays.asList(text.split("\n")).equals(
          List.of(checkpoint.getOrigin(), String.valueOf(checkpoint.getSize()), hash)), "note text " + text);
      String prefix = "\u2014 " + key.getName() + " ";
      String line = Arrays.stream(note.substring(text.length() + 1).split("\n"))
          .filter(l -> l.startsWith(prefix)).findFirst().orElse(null);
      Conformance.ensure(line != null, "no signature line in " + note);
      byte[] signed = Base64.getDecoder().decode(line.substring(prefix.length()));
      Conformance.ensure(signed.length == 68
          && hex(Arrays.copyOf(signed, 4)).equals(key.getKeyId()), "signature line " + line);
      byte[] raw = Base64.getDecoder().decode(key.getPublicKey());
      byte[] der = Arrays.copyOf(ED25519_SPKI, ED25519_SPKI.length + raw.length);
      System.arraycopy(raw, 0, der, ED25519_SPKI.length, raw.length);
      PublicKey publicKey = KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(der));
      Signature verifier = Signature.getInstance("Ed25519");
      verifier.initVerify(publicKey);
      verifier.update(text.getBytes(StandardCharsets.UTF_8));
      Conformance.ensure(verifier.verify(Arrays.copyOfRange(signed, 4, 68)), "the note's signature does not verify");
    });
  }
}
