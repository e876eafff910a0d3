import { readFileSync } from 'node:fs';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { send } from './http.ts';

/** How long every answered account's event may take to reach the receiver after the last cycle. */
const DELIVERED_PATIENCE_MS = 90_000;

export interface DeliveryFigures {
  /** Delivery processes SIGKILLed alone (their server kept serving). */
  deliveryKills: number;
  /** Requests the receiver got, and the distinct accounts they carried. */
  deliveriesReceived: number;
  /** Answered accounts whose creation event never reached the receiver: lost deliveries. */
  deliveriesMissing: number;
}

/**
 * Webhooks under the kills: a receiver on 127.0.0.1 answering 200, an endpoint of the campaign's org enabled for
 * every event, the delivery processes killed on their own at random moments, and at the end the check that every
 * answered account's creation event was delivered at least once (at least once: a repeat is allowed, a loss is not).
 */
export class Deliveries {
  readonly figures: DeliveryFigures = { deliveryKills: 0, deliveriesReceived: 0, deliveriesMissing: 0 };
  readonly #accounts = new Set<string>();
  readonly #server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      this.figures.deliveriesReceived++;
      const event = JSON.parse(body) as { type: string; data: { object: { id: string } } };
      if (event.type === 'fintech.account.created') this.#accounts.add(event.data.object.id);
      response.end('ok');
    });
  });

  async subscribe(url: string, apiKey: string): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const { port } = this.#server.address() as { port: number };
    const agent = new http.Agent();
    const made = await send(
      agent,
      url,
      'POST',
      '/v1/webhook_endpoints',
      { authorization: `Bearer ${apiKey}` },
      {
        url: `http://127.0.0.1:${port}/hook`,
        enabled_events: ['*'],
      },
    );
    agent.destroy();
    if (made.status !== 200) throw new Error(`the endpoint could not be made: ${made.status} ${made.text}`);
  }

  /** SIGKILL to the delivery processes of the server `pid` (its children), leaving the server serving. */
  killDeliveryProcesses(pid: number): void {
    let children: number[] = [];
    try {
      children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
    } catch {
      return; // no /proc here: the API kills still take the delivery processes with them
    }
    for (const child of children) {
      try {
        process.kill(child, 'SIGKILL');
        this.figures.deliveryKills++;
      } catch {
        // already gone
      }
    }
  }

  /** Waits until every answered account's event has arrived; the ones that never did are counted and returned. */
  async missing(answered: Set<string>): Promise<string[]> {
    const started = performance.now();
    let missing = [...answered].filter((id) => !this.#accounts.has(id));
    while (missing.length > 0 && performance.now() - started < DELIVERED_PATIENCE_MS) {
      await sleep(250);
      missing = missing.filter((id) => !this.#accounts.has(id));
    }
    this.figures.deliveriesMissing = missing.length;
    return missing;
  }

  close(): void {
    this.#server.closeAllConnections();
    this.#server.close();
  }
}
