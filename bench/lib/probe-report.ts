/** The probe's figures (bench/probe.ts) as the lines of RESULTS.md that answer "does the writer need a thread?". */
import type { ProbeFigures } from './plinth.ts';

const pct = (share: number) => `${(share * 100).toFixed(1)}%`;
const ms = (value: number) => value.toFixed(2);

export function probeLines(runs: [string, ProbeFigures | null][]): string[] {
  const lines = [
    '| create load | event loop utilisation | server CPU (of one core) | loop delay p50 / p99 / max ms ' +
      '| SQLite statements (share of wall time) | statement time per write µs | commits/s | writes per commit | COMMIT p50 / mean / p99 ms ' +
      '| COMMIT share of wall time |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [label, p] of runs) {
    if (p === null) {
      lines.push(`| ${label} | probe gave no figures | | | | | | | | |`);
      continue;
    }
    const c = p.commits;
    const writes = c.calls * c.writes_per_commit;
    const perWrite = writes > 0 ? ((p.sqlite_statements.ms * 1000) / writes).toFixed(0) : '?';
    lines.push(
      `| ${label} | ${pct(p.event_loop_utilisation)} | ${pct(p.cpu_share)} | ` +
        `${ms(p.loop_delay_ms.p50)} / ${ms(p.loop_delay_ms.p99)} / ${ms(p.loop_delay_ms.max)} | ` +
        `${pct(p.sqlite_statements.share)} | ${perWrite} | ${c.per_second.toFixed(0)} | ${c.writes_per_commit.toFixed(1)} | ` +
        `${ms(c.p50_ms)} / ${ms(c.mean_ms)} / ${ms(c.p99_ms)} | ${pct(c.share)} |`,
    );
  }
  return lines;
}
