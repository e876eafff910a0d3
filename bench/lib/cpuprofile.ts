/**
 * Summarises a V8 .cpuprofile (node --cpu-prof): self time by category of the frame that was running, and by
 * "owner" (the nearest frame on the stack that belongs to a package or to Plinth's own code), so that time in
 * built-ins (JSON.stringify, fs.writeSync, node:sqlite's exec) is charged to whoever called them.
 */
import { readFileSync } from 'node:fs';

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: Frame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const SQLITE_NATIVE = new Set(['exec', 'run', 'all', 'get', 'iterate', 'prepare']);

/** What kind of work the running frame was doing. */
export function category(frame: Frame): string {
  const { functionName: fn, url } = frame;
  if (fn === '(idle)' || fn === '(program)' || fn === '(garbage collector)') return fn;
  if (url === '' && SQLITE_NATIVE.has(fn)) return 'node:sqlite (statements, BEGIN/SAVEPOINT/COMMIT+fsync)';
  if (url === '' && (fn === 'stringify' || fn === 'parse')) return 'JSON.stringify / JSON.parse';
  if (url === '' && /^write|Sync$/.test(fn)) return 'synchronous I/O (fs.writeSync …)';
  if (url.includes('/pino') || url.includes('sonic-boom') || url.includes('fast-redact')) return 'logging (pino)';
  if (url.includes('fast-json-stringify')) return 'serializer (fast-json-stringify)';
  if (url.includes('/ajv/') || (url === '' && fn === 'validate')) return 'validation (Ajv)';
  if (url.includes('/kysely/')) return 'Kysely (query building)';
  if (url.includes('/fastify/') || url.includes('/avvio/') || url.includes('light-my-request')) return 'Fastify';
  if (url.includes('find-my-way')) return 'routing (find-my-way)';
  if (url.includes('node:_http') || url.includes('node:http')) return 'node:http';
  if (url.startsWith('node:net') || url.startsWith('node:stream') || url.includes('internal/streams'))
    return 'node:net / streams';
  if (url.startsWith('node:')) return `other node: built-ins`;
  if (url.includes('/src/')) return 'Plinth src/';
  if (url === '') return `other native (${fn || 'anonymous'})`;
  return `other JS`;
}

/** The package (or Plinth directory) a frame belongs to, or null for built-ins. */
function owner(frame: Frame): string | null {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame.url);
  if (pkg) return pkg[1]!;
  const own = /\/src\/(.+?\.ts)/.exec(frame.url);
  return own ? `src/${own[1]}` : null;
}

export interface Summary {
  totalMs: number;
  byCategory: [string, number][];
  byOwner: [string, number][];
  topFunctions: [string, number][];
}

const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
const add = (m: Map<string, number>, key: string, ms: number) => m.set(key, (m.get(key) ?? 0) + ms);

export function summarise(path: string): Summary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  for (const [i, id] of profile.samples.entries())
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  const byCategory = new Map<string, number>();
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let totalMs = 0;
  for (const [id, ms] of self) {
    const frame = byId.get(id)!.callFrame;
    totalMs += ms;
    const kind = category(frame);
    add(byCategory, kind, ms);
    const where = frame.url.replace(/^.*node_modules\//, '').replace(/^.*\/src\//, 'src/');
    add(byFunction, `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`, ms);
    let at: number | undefined = id;
    let found: string | null = null;
    while (at !== undefined && found === null) {
      found = owner(byId.get(at)!.callFrame);
      at = parent.get(at);
    }
    add(byOwner, found ?? (kind.startsWith('(') ? kind : 'node built-ins, no package on the stack'), ms);
  }
  return { totalMs, byCategory: sorted(byCategory), byOwner: sorted(byOwner), topFunctions: sorted(byFunction) };
}

export function summaryLines(s: Summary, top = 25): string[] {
  const share = (ms: number) => `${((ms / s.totalMs) * 100).toFixed(1)}%`;
  const table = (title: string, rows: [string, number][]) => [
    `| ${title} | self ms | share |`,
    '|---|---|---|',
    ...rows.slice(0, top).map(([k, ms]) => `| ${k.replaceAll('|', '\\|')} | ${ms.toFixed(0)} | ${share(ms)} |`),
    '',
  ];
  return [
    ...table('category of the running frame', s.byCategory),
    ...table('owner (nearest package or src/ file on the stack)', s.byOwner),
    ...table('function', s.topFunctions),
  ];
}
