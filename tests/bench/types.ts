/**
 * One figure of `npm run bench`. Every benchmark module (`bench/<area>.ts`) exports an async function
 * returning these rows; `bench/run.ts` prints them as a table and writes them to `bench/results.json`.
 */
export interface BenchRow {
  /** The module that measured it: `platform`, `client-bundle`, ... */
  area: string;
  /** What was measured, e.g. `GET /api/auth/check p95 (50 conn)`. */
  metric: string;
  /** The figure; null when it could not be measured (then `ok` is false). */
  value: number | null;
  /** `ms`, `req/s`, `MB`, `count`, ... */
  unit: string;
  /** The target as text, e.g. `< 2000`; null for figures reported for information only. */
  target: string | null;
  /** Whether the value meets the target; null when there is no target. */
  ok: boolean | null;
}

/** A target: the value must be below `below` (or at most `atMost`, or at least `atLeast`). */
export interface Target {
  below?: number;
  atMost?: number;
  atLeast?: number;
}

/** Builds a row, checking the value against the target when there is one. */
export function row(area: string, metric: string, value: number | null, unit: string, target?: Target): BenchRow {
  if (!target) return { area, metric, value, unit, target: null, ok: null };
  const checks: Array<[string, (v: number) => boolean]> = [];
  if (target.below !== undefined) checks.push([`< ${target.below}`, (v) => v < target.below!]);
  if (target.atMost !== undefined) checks.push([`<= ${target.atMost}`, (v) => v <= target.atMost!]);
  if (target.atLeast !== undefined) checks.push([`>= ${target.atLeast}`, (v) => v >= target.atLeast!]);
  return {
    area,
    metric,
    value,
    unit,
    target: checks.map(([text]) => text).join(' and '),
    ok: value !== null && Number.isFinite(value) && checks.every(([, check]) => check(value)),
  };
}
