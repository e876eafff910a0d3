/** What every resource class (src/operations/, generated) is built from: one per client. */
import type { Configuration } from '../../generated/index.js';
import type { Call } from '../call.js';
import type { StreamConnection } from '../stream.js';

export interface ResourceContext {
  /** The generated API classes' configuration: base URL, key, the retrying fetch (transport.ts). */
  configuration: Configuration;
  /** Runs a generated call: the answer with its `Request-Id`, or a PlinthError (call.ts). */
  call: Call;
  /** The event stream's connection (stream.ts): it bypasses the retrying fetch, resuming by itself instead. */
  stream: StreamConnection;
}
