// A flood for the request log tests and campaign: loopback only, bounded in time.
/** `connections` clients sending one request after another with `key` for `ms`; the answers counted by status. */
export async function flood(url: string, key: string, ms: number, connections: number) {
  const statuses = new Map<number, number>();
  const until = Date.now() + ms;
  const worker = async () => {
    while (Date.now() < until) {
      const reply = await fetch(`${url}/v1/fintech/accounts`, { headers: { authorization: `Bearer ${key}` } });
      await reply.arrayBuffer();
      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: connections }, worker));
  return { statuses, seconds: (Date.now() - started) / 1000 };
}
