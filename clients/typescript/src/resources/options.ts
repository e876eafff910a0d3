/** What one POST may choose. */
export interface RequestOptions {
  /**
   * Your own `Idempotency-Key` (1–255 visible ASCII characters). By default every POST gets a new UUID, made
   * before the first attempt and reused by its retries, so a retried call never acts twice.
   */
  idempotencyKey?: string;
}
