import type { Static } from 'typebox';
import { type ErrorCatalogue, errorCatalogue } from './platform/http/error-codes.ts';
import { useErrorCatalogue } from './platform/http/errors.ts';
import { type SecretShape, useSecretShapes } from './platform/kit/redact.ts';
import { fintech } from './products/fintech/index.ts';

/**
 * The product registry: one line per product. The app, the migrator, the OpenAPI tags, the settings, the error codes
 * and the secret shapes loop over it.
 */
export const PRODUCTS = [fintech] as const;

type Each = (typeof PRODUCTS)[number];
type Intersect<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** Every product's settings, merged into the one Config. */
export type ProductSettings = Intersect<Static<Each['settings']>>;

declare module './platform/http/error-codes.ts' {
  /** A registered product's codes are `ErrorCode`s: `new ApiError('insufficient_funds', …)` is checked. */
  interface ProductErrors {
    registry: Intersect<NonNullable<Each['errors']>>;
  }
}

/** The one closed list of error codes: the platform's and every product's, in catalogue order. */
export const ERROR_CODES: ErrorCatalogue = errorCatalogue(PRODUCTS.map((p) => p.errors ?? {}));

/** Every product's secret shapes, redacted with the platform's. */
export const SECRET_SHAPES: readonly SecretShape[] = PRODUCTS.flatMap((p) => p.secretShapes ?? []);

/**
 * Hands the platform what the products register that it reads everywhere: the closed list of error codes (ApiError,
 * the problem schema, /docs/errors) and the secret shapes (every log line, every error detail). Each process calls
 * it at start-up, before it logs or answers: the app when it is built, the CLI when it starts.
 */
export function registerProducts(): void {
  useErrorCatalogue(ERROR_CODES);
  useSecretShapes(SECRET_SHAPES);
}
