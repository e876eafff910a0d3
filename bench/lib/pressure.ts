/**
 * How disturbed a measurement was: Linux pressure stall information (/proc/pressure/{cpu,io}), the share of the
 * load's wall time during which some task on the machine waited for a CPU, or for I/O. Other work on a shared
 * machine shows here; a load measured under high pressure is worth re-running.
 */
import { readFileSync } from 'node:fs';

function stalledMicros(resource: 'cpu' | 'io'): number | null {
  try {
    const some = readFileSync(`/proc/pressure/${resource}`, 'utf8').split('\n')[0] ?? '';
    return Number(/total=(\d+)/.exec(some)?.[1] ?? Number.NaN);
  } catch {
    return null;
  }
}

export interface Pressure {
  cpu: number | null;
  io: number | null;
}

/** Starts counting; the function it returns answers the shares since then. */
export function watchPressure(): () => Pressure {
  const started = performance.now();
  const cpu = stalledMicros('cpu');
  const io = stalledMicros('io');
  return () => {
    const wallMicros = (performance.now() - started) * 1000;
    const share = (before: number | null, after: number | null) =>
      before === null || after === null ? null : (after - before) / wallMicros;
    return { cpu: share(cpu, stalledMicros('cpu')), io: share(io, stalledMicros('io')) };
  };
}
