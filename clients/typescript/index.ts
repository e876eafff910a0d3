/**
 * Plinth's TypeScript client: openapi-fetch over types that openapi-typescript generates from
 * openapi/openapi.json (`npm run openapi`). Every path, parameter, body and response is typed, and a failed
 * call's `error` is the typed RFC 9457 problem.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema.ts';

export type { components, paths };
export type Account = components['schemas']['Account'];
export type AccountList = components['schemas']['AccountList'];
export type Problem = components['schemas']['Problem'];
export type Transfer = components['schemas']['Transfer'];
export type Transaction = components['schemas']['Transaction'];

export interface PlinthClientOptions {
  /** e.g. `http://127.0.0.1:8080` */
  baseUrl: string;
  /** `sk_test_…` or `sk_live_…` */
  apiKey: string;
}

export function createPlinthClient(options: PlinthClientOptions): Client<paths> {
  return createClient<paths>({ baseUrl: options.baseUrl, headers: { authorization: `Bearer ${options.apiKey}` } });
}
