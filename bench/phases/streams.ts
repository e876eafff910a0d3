/**
 * What open event streams cost the write path (issue 34: creates with 5 open streams ≥ 0.95× creates with none):
 * Plinth on SQLite, one server, the create load run with no stream open and with five streams of the same
 * organisation open (the most EVENT_STREAMS_PER_ORG allows, and the worst case: every event created is read and
 * sent five times), in the order none, five, five, none (ABBA). The streams are read as fast as they come; the
 * bytes they received are counted, so a figure with streams that carried nothing cannot pass for one.
 */
import { type IncomingMessage, request } from 'node:http';
import { join } from 'node:path';
import { abba } from '../lib/abba.ts';
import { type Load, loadCreate } from '../lib/load.ts';
import { type Plinth, startPlinth } from '../lib/plinth.ts';
import { stop } from '../lib/process.ts';

export const STREAMS = 5;

export interface StreamResults {
  none: Load;
  five: Load;
  /** Creates with five streams / without, same run. */
  ratio: number;
  /** Bytes the streams received during the loads with them, all five together. */
  bytesReceived: number;
}

/** Opens `STREAMS` streams of the server's key; `close` ends them and says how many bytes they carried. */
async function openStreams(server: Plinth): Promise<{ close: () => number }> {
  let bytes = 0;
  const responses = await Promise.all(
    Array.from(
      { length: STREAMS },
      () =>
        new Promise<IncomingMessage>((resolve, reject) => {
          const req = request({
            host: '127.0.0.1',
            port: server.port,
            path: '/v1/events/stream',
            headers: { authorization: server.authorization },
          });
          req.on('response', resolve).on('error', reject).end();
        }),
    ),
  );
  for (const response of responses) {
    if (response.statusCode !== 200) throw new Error(`a stream was refused: ${response.statusCode}`);
    // Bytes, not events: parsing here would take the CPU the server is measured with on a small machine.
    response.on('data', (chunk: Buffer) => (bytes += chunk.length));
  }
  return {
    close: () => {
      for (const response of responses) response.destroy();
      return bytes;
    },
  };
}

export async function streamsPhase(dir: string): Promise<StreamResults> {
  const server = await startPlinth({ databaseUrl: `sqlite:${join(dir, 'streams.db')}`, dir, name: 'sqlite-streams' });
  let bytesReceived = 0;
  try {
    const { a, b } = await abba(
      ['Plinth SQLite: create, no stream open', () => loadCreate(server.port, server.authorization)],
      [
        `Plinth SQLite: create, ${STREAMS} streams open`,
        async () => {
          const streams = await openStreams(server);
          try {
            return await loadCreate(server.port, server.authorization);
          } finally {
            bytesReceived += streams.close();
          }
        },
      ],
    );
    return { none: a, five: b, ratio: b.rps / a.rps, bytesReceived };
  } finally {
    await stop(server);
  }
}
