/** Issue 24's targets (a pending transfer, and its post, within 10% of a plain transfer) and their table. */
import { PENDING_SECONDS, type PendingResults } from '../phases/pending.ts';
import type { CpuShare } from './cpu.ts';
import type { Load } from './load.ts';
import { pct, type Target, x } from './report.ts';

const WANTED = 0.9;

function ratioTarget(name: string, ratio: number, measured: Load, plain: Load): Target {
  return {
    name,
    target: `≥ ${WANTED.toFixed(2)}×`,
    measured:
      `${x(ratio)} (${measured.rps.toFixed(0)} vs ${plain.rps.toFixed(0)} req/s; ` +
      `p99 ${measured.p99} vs ${plain.p99} ms)`,
    pass: ratio >= WANTED && measured.errors + measured.non2xx + plain.errors + plain.non2xx === 0,
    loads: [measured, plain],
  };
}

export function pendingTargets(backends: [name: string, results: PendingResults | null][]): Target[] {
  return backends.flatMap(([name, r]) =>
    r === null
      ? []
      : [
          ratioTarget(
            `${name} pending transfer vs plain transfer (same run, ABBA)`,
            r.pendingRatio,
            r.pending,
            r.plain,
          ),
          ratioTarget(
            `${name} post of a pending transfer vs plain transfer (same run, ABBA)`,
            r.postRatio,
            r.post,
            r.plainAgain,
          ),
        ],
  );
}

const total = (c: CpuShare) => c.server + (c.postgres ?? 0);
const cpuOf = (c: CpuShare, base?: CpuShare) =>
  (c.postgres === null ? total(c).toFixed(2) : `${c.server.toFixed(2)} + ${c.postgres.toFixed(2)}`) +
  (base ? ` (${total(c) >= total(base) ? '+' : ''}${((total(c) / total(base) - 1) * 100).toFixed(0)}%)` : '');

const row = (label: string, l: Load, base?: Load) =>
  `| ${label} | ${l.rps.toFixed(0)} | ${base ? x(l.rps / base.rps) : ''} | ${l.p50} | ${l.p99} | ${l.non2xx} | ` +
  `${l.errors} | ${pct(l.pressure.cpu)} / ${pct(l.pressure.io)} |`;

export function pendingLines(backends: [name: string, results: PendingResults | null][]): string[] {
  const ran = backends.filter((b): b is [string, PendingResults] => b[1] !== null);
  if (ran.length === 0) return [];
  return [
    `## Pending transfers (issue 24: ${PENDING_SECONDS} s loads, plain / pending / pending / plain, then plain / ` +
      'post / post / plain; each side the mean of its two)',
    '',
    '| server and load | req/s | ratio | p50 ms | p99 ms | non-2xx | errors | CPU / I/O pressure |',
    '|---|---|---|---|---|---|---|---|',
    ...ran.flatMap(([name, r]) => [
      row(`${name}: plain transfers around 8 accounts`, r.plain),
      row(`${name}: pending transfers (vs plain)`, r.pending, r.plain),
      row(`${name}: plain transfers, again`, r.plainAgain),
      row(`${name}: posts, each of a distinct pending transfer (vs plain, again)`, r.post, r.plainAgain),
    ]),
    '',
    ...ran.flatMap(([name, r]) => [
      `${name}, CPU ms per request${r.cpu.plain.postgres === null ? '' : ' (server + PostgreSQL)'}: ` +
        `plain ${cpuOf(r.cpu.plain)}, pending ${cpuOf(r.cpu.pending, r.cpu.plain)}; ` +
        `plain again ${cpuOf(r.cpu.plainAgain)}, post ${cpuOf(r.cpu.post, r.cpu.plainAgain)}. ` +
        `${r.posts.ready} pending transfers to post, made and listed in ${r.posts.seconds.toFixed(1)} s (not measured).`,
      '',
    ]),
    '`npm run bench:instructions` counts the same comparison in CPU instructions, which a busy machine does not ' +
      'disturb.',
    '',
  ];
}
