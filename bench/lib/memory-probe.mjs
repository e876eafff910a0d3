/**
 * A diagnosis preload for bench/memory.ts (MEMORY_PROBE=1): every 200 ms it reads process.memoryUsage(); at each new
 * RSS high it also reads V8's heap spaces and writes them with it to MEMORY_PROBE_OUT (JSON, MiB). Plain JavaScript,
 * so that it adds no type stripping of its own.
 */
import { writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';

// The server's figures only: its delivery processes inherit the preload and the environment.
const out = process.env.PLINTH_DELIVERY_WORKER === undefined ? process.env.MEMORY_PROBE_OUT : undefined;
const mib = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10;
let highest = 0;
if (out)
  setInterval(() => {
    const usage = process.memoryUsage();
    if (usage.rss <= highest) return;
    highest = usage.rss;
    const heap = getHeapStatistics();
    const spaces = Object.fromEntries(
      getHeapSpaceStatistics().map((s) => [s.space_name, [mib(s.space_size), mib(s.space_used_size)]]),
    );
    writeFileSync(
      out,
      JSON.stringify({
        rss: mib(usage.rss),
        heapTotal: mib(usage.heapTotal),
        heapUsed: mib(usage.heapUsed),
        external: mib(usage.external),
        arrayBuffers: mib(usage.arrayBuffers),
        mallocedMemory: mib(heap.malloced_memory),
        peakMallocedMemory: mib(heap.peak_malloced_memory),
        physical: mib(heap.total_physical_size),
        spaces,
      }),
    );
  }, 200).unref();
