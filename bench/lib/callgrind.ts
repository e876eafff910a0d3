import { spawnSync } from 'node:child_process';

/**
 * What a callgrind profile's instructions went to, by the self cost of each native function (callgrind_annotate),
 * grouped by what V8 or the process was doing: compiling (the parser, Ignition, Sparkplug, Maglev, Turbofan and
 * regular-expression compilers), deoptimising, collecting garbage, running JIT code (no symbol), builtins, SQLite.
 * The groups are judged by symbol names of Node 24's binary; what no rule names is "other".
 */
const GROUPS: [string, RegExp][] = [
  ['deoptimising', /Deoptimizer|TranslatedState|TranslatedFrame|MaterializedObject/],
  [
    'compiling',
    /v8::internal::(compiler|maglev|turboshaft|interpreter|baseline|wasm)::|v8::internal::(Parser|PreParser|ParserBase|Scanner|Utf16CharacterStream|AstNodeFactory|AstValueFactory|DeclarationScope|Scope::|Compiler::|Assembler|MacroAssembler|RegExpCompiler|RegExpParser|RegExpBytecode|RegExpMacroAssembler|RegExpNode|TextNode|ChoiceNode|CodeGenerator|Zone::|ZoneList|BytecodeArrayBuilder|SharedFunctionInfo::EnsureSourcePositions|OptimizedCompilationInfo|UnoptimizedCompile|Factory::NewCode|CodeDesc|RelocIterator)/,
  ],
  [
    'garbage collection',
    /v8::internal::(heap::|Heap::|Heap[A-Z]|Scavenger|MarkCompact|Marking|MainMarking|ConcurrentMarking|IncrementalMarking|MinorMark|Sweeper|MemoryAllocator|MemoryChunk|MutablePage|PageMetadata|MutablePageMetadata|RememberedSet|SlotSet|TypedSlot|Evacuat|LargeObjectSpace|PagedSpace|NewSpace|SemiSpace|FreeList|OldLargeObjectSpace|GCTracer|LocalHeap|Safepoint|ArrayBufferSweeper|ExternalPointerTable|TracedHandles|GlobalHandles|StrongRootAllocator|WeakObjects|EphemeronTable|Ephemeron|PretenuringHandler|RootVisitor|ObjectVisitor|BodyDescriptor|HeapVisitor|ConcurrentMarkingVisitor|MarkingVisitor|YoungGenerationMarking|FullMarking|ScavengeVisitor|ScavengerCollector|IterateAndScavenge|CppHeap|Unified)|cppgc::|MarkingVisitor|Scavenge|MarkCompact/,
  ],
  ['SQLite', /^sqlite3|^pcache|^btree|^vdbe|^wal|^pager|^unix|sqlite/i],
  ['V8 builtins', /^Builtins_|Builtin/],
  ['V8 runtime and ICs', /v8::internal::(Runtime_|\w*IC|FeedbackNexus|LookupIterator|Object::|JSObject::|Map::|TransitionsAccessor|Factory::|String|JsonStringifier|JsonParser|Isolate::|Execution|MicrotaskQueue|JSPromise|Builtins::)/],
  ['libc and the allocator', /^(__|_int_|mem|str|malloc|free|calloc|realloc|operator new|operator delete)|libc/],
];

/** Self instructions by group, from `callgrind_annotate` of one profile file. */
export function callgrindGroups(file: string): { total: number; groups: Map<string, number>; top: [string, number][] } {
  const run = spawnSync('callgrind_annotate', ['--inclusive=no', '--threshold=100', file], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.status !== 0 && /missing events|totals: 0/.test(run.stderr)) return { total: 0, groups: new Map(), top: [] };
  if (run.status !== 0) throw new Error(`callgrind_annotate failed: ${run.stderr}`);
  const groups = new Map<string, number>();
  const top: [string, number][] = [];
  let total = 0;
  for (const line of run.stdout.split('\n')) {
    const m = /^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(.+)$/.exec(line);
    if (m === null) continue;
    const count = Number(m[1]!.replaceAll(',', ''));
    const name = m[2]!.replace(/^[^:]*:/, '').replace(/ \[[^\]]*\]$/, '');
    if (/PROGRAM TOTALS|file:function/.test(line)) continue;
    total += count;
    const group = GROUPS.find(([, rule]) => rule.test(name))?.[0] ?? (/^0x[0-9a-f]+$|\?\?\?/.test(name) ? 'JIT code' : 'other');
    groups.set(group, (groups.get(group) ?? 0) + count);
    if (top.length < 60) top.push([name, count]);
  }
  return { total, groups, top };
}
