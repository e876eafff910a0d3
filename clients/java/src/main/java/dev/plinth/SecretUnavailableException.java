package dev.plinth;

/**
 * Thrown by {@link CreatedApiKey#getKey()} and {@link CreatedWebhookEndpoint#getSecret()} when the answer is an
 * idempotent replay ({@code Idempotent-Replayed: true}): the server never stores a secret, so a replay of the request
 * that created it answers {@code null} in its place. The object exists ({@link #getObjectId()}); revoke the key and
 * create another, or rotate the endpoint's secret.
 */
public final class SecretUnavailableException extends IllegalStateException {
  private final String objectId;

  SecretUnavailableException(String what, String objectId, String remedy) {
    super("the " + what + " of " + objectId + " is not in this answer: it is an idempotent replay "
        + "(Idempotent-Replayed: true), and the server shows a secret only in the first answer; " + remedy);
    this.objectId = objectId;
  }

  /** The id of the key or endpoint whose secret this answer does not carry. */
  public String getObjectId() { return objectId; }
}
