package dev.plinth;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.plinth.client.ApiClient;
import dev.plinth.client.model.Event;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifies a webhook delivery (docs/api.md#webhooks, Standard Webhooks v1) with {@code javax.crypto}:
 *
 * <pre>{@code Event event = Webhook.verify(secret, headers, rawBody); // throws Webhook.VerificationException}</pre>
 *
 * {@code rawBody} must be the exact bytes received, not a re-serialised parse of them.
 */
public final class Webhook {
  /** How far a delivery's {@code webhook-timestamp} may be from now, either way, by default. */
  public static final Duration DEFAULT_TOLERANCE = Duration.ofMinutes(5);

  private static final ObjectMapper MAPPER = ApiClient.createDefaultObjectMapper()
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
      .configure(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_USING_DEFAULT_VALUE, true)
      .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, false);

  private Webhook() {}

  /**
   * Why a delivery was refused; {@link #getReason()} is one of {@code missing_headers}, {@code timestamp_invalid},
   * {@code timestamp_too_old}, {@code timestamp_too_new}, {@code secret_invalid}, {@code signature_mismatch},
   * {@code body_invalid}.
   */
  public static final class VerificationException extends RuntimeException {
    private final String reason;

    VerificationException(String reason, String message) {
      super(message);
      this.reason = reason;
    }

    public String getReason() {
      return reason;
    }
  }

  public static Event verify(String secret, Map<String, String> headers, String rawBody) {
    return verify(secret, headers, rawBody.getBytes(StandardCharsets.UTF_8), DEFAULT_TOLERANCE, Instant.now());
  }

  public static Event verify(String secret, Map<String, String> headers, byte[] rawBody) {
    return verify(secret, headers, rawBody, DEFAULT_TOLERANCE, Instant.now());
  }

  /**
   * Checks that {@code webhook-timestamp} is within {@code tolerance} of {@code now} and that one of the {@code v1,}
   * signatures is the HMAC-SHA256, keyed with the decoded {@code whsec_} secret, of {@code <id>.<timestamp>.<body>}
   * (compared in constant time); returns the parsed event. Header names are matched without regard to case.
   */
  public static Event verify(String secret, Map<String, String> headers, byte[] rawBody, Duration tolerance, Instant now) {
    String id = header(headers, "webhook-id");
    String timestamp = header(headers, "webhook-timestamp");
    String signatures = header(headers, "webhook-signature");
    if (id == null || id.isEmpty() || timestamp == null || timestamp.isEmpty() || signatures == null || signatures.isEmpty()) {
      throw new VerificationException("missing_headers", "webhook-id, webhook-timestamp and webhook-signature are required");
    }
    long sent;
    try {
      if (!timestamp.chars().allMatch(c -> c >= '0' && c <= '9')) throw new NumberFormatException();
      sent = Long.parseLong(timestamp);
    } catch (NumberFormatException e) {
      throw new VerificationException("timestamp_invalid", "webhook-timestamp is not unix seconds");
    }
    if (sent < now.minus(tolerance).getEpochSecond()) {
      throw new VerificationException("timestamp_too_old", "webhook-timestamp is too old");
    }
    if (sent > now.plus(tolerance).getEpochSecond()) {
      throw new VerificationException("timestamp_too_new", "webhook-timestamp is in the future");
    }
    byte[] key;
    try {
      key = Base64.getDecoder().decode(secret.startsWith("whsec_") ? secret.substring(6) : secret);
    } catch (IllegalArgumentException e) {
      throw new VerificationException("secret_invalid", "the secret is not whsec_ followed by base64");
    }
    byte[] expected;
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
      expected = Base64.getEncoder().encode(mac.doFinal(rawBody));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new VerificationException("secret_invalid", "the secret cannot key HMAC-SHA256: " + e.getMessage());
    }
    boolean matched = false;
    for (String candidate : signatures.split(" ")) {
      int comma = candidate.indexOf(',');
      if (comma < 0 || !candidate.substring(0, comma).equals("v1")) continue;
      byte[] signature = candidate.substring(comma + 1).getBytes(StandardCharsets.US_ASCII);
      if (MessageDigest.isEqual(signature, expected)) matched = true;
    }
    if (!matched) throw new VerificationException("signature_mismatch", "no webhook-signature matches the body");
    try {
      return MAPPER.readValue(rawBody, Event.class);
    } catch (IOException e) {
      throw new VerificationException("body_invalid", "the signed body is not an event: " + e.getMessage());
    }
  }

  private static String header(Map<String, String> headers, String name) {
    for (Map.Entry<String, String> e : headers.entrySet()) {
      if (e.getKey() != null && e.getKey().equalsIgnoreCase(name)) return e.getValue();
    }
    return null;
  }
}
