/**
 * @plinth/client: the Plinth API for Node.js ≥ 18 and browsers. See clients/README.md for an example.
 */

// The models, exactly as generated from the API description; types only (the generated runtime is an
// implementation detail), so a model added to the document is exported here without editing this file.
export type * from '../generated/models/index.js';
export type { CreateOptions, ListParams, PlinthClientOptions, RawRequest, WithRequestId } from './client.js';
export { AccountsResource, ApiKeysResource, PlinthClient, SandboxResource, TransfersResource } from './client.js';
export { PlinthError } from './errors.js';
export type { RetryInfo } from './transport.js';
export type { VerifyOptions, WebhookHeaders } from './webhooks.js';
export { Webhook, WebhookVerificationError } from './webhooks.js';
