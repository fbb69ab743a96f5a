import { performance } from 'node:perf_hooks';

/**
 * Where the time of a long write (an import) goes, phase by phase, for the import benchmark: on only when the
 * server runs with WRITE_PHASES=1, when the import job prints one line per import ("write phases of import 3: ...").
 * Phases nest (the batch writer's own phases run inside the import's); each phase's figure is its own time
 * without the phases inside it, so the figures add up to the whole.
 */
const enabled = process.env.WRITE_PHASES === '1';
const totals = new Map<string, number>();
const stack: Array<{ name: string; inner: number }> = [];

export async function phase<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (!enabled) return work();
  const started = performance.now();
  stack.push({ name, inner: 0 });
  try {
    return await work();
  } finally {
    const frame = stack.pop()!;
    const spent = performance.now() - started;
    totals.set(name, (totals.get(name) ?? 0) + spent - frame.inner);
    if (stack.length) stack[stack.length - 1].inner += spent;
  }
}

/** A synchronous phase (parsing, mapping). */
export function phaseSync<T>(name: string, work: () => T): T {
  if (!enabled) return work();
  const started = performance.now();
  try {
    return work();
  } finally {
    const spent = performance.now() - started;
    totals.set(name, (totals.get(name) ?? 0) + spent);
    if (stack.length) stack[stack.length - 1].inner += spent;
  }
}

/** The phases' times since the last report, largest first ("insert 1.2 s, revisions 0.8 s"), and start again; null when off. */
export function takePhases(): string | null {
  if (!enabled) return null;
  const line = [...totals]
    .sort((a, b) => b[1] - a[1])
    .map(([name, ms]) => `${name} ${(ms / 1000).toFixed(2)} s`)
    .join(', ');
  totals.clear();
  return line;
}
