import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { redactRecord, redactSecrets } from '../kit/redact.ts';
import { AccessLogController, requestId } from './access-log.ts';
import { BODY_LIMIT } from './body.ts';
import { answerFrameworkError } from './problem.ts';
import { parseQuery } from './query-parser.ts';
import { handleClientError } from './raw-answers.ts';
import { httpServerOptions } from './server-options.ts';

/** The Fastify instance every app is built on: its logger (redacted), limits, parsers, and how it closes. */

/**
 * What the instance reads of the core's settings (PlatformConfig, src/platform/settings.ts, which is handed in):
 * named here, so that http/ imports nothing of the platform but kit/ (.dependency-cruiser.cjs).
 */
export interface FastifySettings {
  LOG_LEVEL: string;
  REQUEST_TIMEOUT_SECONDS: number;
  TRUST_PROXY: false | number | string[];
}

/** A hop count becomes the function form (Fastify's types take no number): trust the nearest `hops` proxies. */
function trustProxy(
  setting: FastifySettings['TRUST_PROXY'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}

export function createFastify(config: FastifySettings, logStream: DestinationStream): FastifyInstance {
  return Fastify({
    logger: {
      level: config.LOG_LEVEL,
      // Secret field names at any depth, and secret shapes in any string (what a client put where it did not
      // belong): one walk of each record (pino's path redaction on top was a second walk, visible in a profile).
      formatters: { log: redactRecord },
      // The message too: formatters see only the object. Ours are constants; this keeps a framework's honest.
      hooks: {
        logMethod(args, method) {
          for (let i = 0; i < args.length; i++) {
            const arg = args[i];
            if (typeof arg === 'string') args[i] = redactSecrets(arg);
          }
          method.apply(this, args);
        },
      },
      stream: logStream,
    },
    logController: new AccessLogController(),
    requestIdHeader: false, // a client cannot choose our request ids
    genReqId: requestId,
    bodyLimit: BODY_LIMIT,
    requestTimeout: config.REQUEST_TIMEOUT_SECONDS * 1000,
    http: httpServerOptions(config.REQUEST_TIMEOUT_SECONDS),
    clientErrorHandler: handleClientError,
    // Past find-my-way's default of 100 characters a path id stopped routing (400 body_malformed, before
    // authentication); any id that fits in the request line must reach its route and be a plain 404 there.
    routerOptions: { maxParamLength: 16_384, querystringParser: parseQuery },
    trustProxy: trustProxy(config.TRUST_PROXY),
    return503OnClosing: false, // answered below, in the error model of docs/api.md#errors
    forceCloseConnections: 'idle',
    frameworkErrors: answerFrameworkError,
  });
}
