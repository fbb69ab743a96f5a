/**
 * `npm run bench [-- area ...]`: runs the benchmark modules in order (or only the areas named), prints one
 * aligned table of their rows and writes them to bench/results.json (git-ignored).
 *
 * A module is a file `bench/<area>.ts` exporting an async function named `bench<Area>` (e.g. `benchPlatform`,
 * `benchClientBundle`) that returns BenchRow[] (see ./types.ts). New files are picked up without editing this
 * one; ORDER only says which run first.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchRow } from './types.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ORDER = ['platform', 'client-bundle'];
const NOT_MODULES = new Set(['run', 'types']);

const functionName = (area: string) =>
  'bench' + area.replace(/(^|[-_])([a-z0-9])/g, (_m, _sep, c: string) => c.toUpperCase());

function discover(): string[] {
  const areas = readdirSync(HERE)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.endsWith('.test.ts'))
    .map((file) => file.slice(0, -3))
    .filter((area) => !NOT_MODULES.has(area));
  const rank = (area: string) => (ORDER.includes(area) ? ORDER.indexOf(area) : ORDER.length);
  return areas.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

function format(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '-';
  const abs = Math.abs(value);
  const digits = Number.isInteger(value) || abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function table(rows: BenchRow[]): string {
  const header = ['area', 'metric', 'value', 'unit', 'target', 'ok'];
  const cells = rows.map((r) => [
    r.area,
    r.metric,
    format(r.value),
    r.unit,
    r.target ?? '',
    r.ok === null ? '' : r.ok ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const right = new Set([2]);
  const line = (c: string[]) =>
    c
      .map((text, i) => (right.has(i) ? text.padStart(widths[i]) : text.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

async function main() {
  const available = discover();
  const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
  const unknown = wanted.filter((area) => !available.includes(area));
  if (unknown.length) {
    console.error(`Unknown benchmark area: ${unknown.join(', ')}. Available: ${available.join(', ')}`);
    process.exit(2);
  }
  const areas = wanted.length ? available.filter((area) => wanted.includes(area)) : available;

  const loadBefore = os.loadavg();
  console.error(
    `[bench] ${os.cpus().length} cores, load average ${loadBefore.map((n) => n.toFixed(2)).join(' ')} (figures are only comparable on a quiet machine)`,
  );
  const rows: BenchRow[] = [];
  const runs: Array<{ area: string; seconds: number; error?: string }> = [];
  for (const area of areas) {
    const started = performance.now();
    console.error(`[bench] ${area}...`);
    try {
      const module = await import(pathToFileURL(path.join(HERE, `${area}.ts`)).href);
      const fn = module[functionName(area)] ?? module.default;
      if (typeof fn !== 'function') throw new Error(`bench/${area}.ts exports no function ${functionName(area)}()`);
      const result: BenchRow[] = await fn();
      rows.push(...result);
      runs.push({ area, seconds: (performance.now() - started) / 1000 });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`[bench] ${area} failed: ${error instanceof Error ? error.stack : message}`);
      rows.push({
        area,
        metric: `FAILED: ${message.split('\n')[0].slice(0, 200)}`,
        value: null,
        unit: '',
        target: null,
        ok: false,
      });
      runs.push({ area, seconds: (performance.now() - started) / 1000, error: message });
      process.exitCode = 1;
    }
    console.error(`[bench] ${area} took ${runs.at(-1)!.seconds.toFixed(1)} s`);
  }

  console.log('\n' + table(rows));
  const targets = rows.filter((r) => r.ok !== null);
  const loadAfter = os.loadavg();
  console.log(
    `\n${targets.filter((r) => r.ok).length} of ${targets.length} targets met. Load average (1 min) before ${loadBefore[0].toFixed(2)}, after ${loadAfter[0].toFixed(2)} on ${os.cpus().length} cores.`,
  );

  const results = {
    date: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? null,
      memoryMb: Math.round(os.totalmem() / 1048576),
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      loadAverageBefore: loadBefore,
      loadAverageAfter: loadAfter,
    },
    runs,
    rows,
  };
  const resultsPath = path.join(HERE, 'results.json');
  writeFileSync(resultsPath, JSON.stringify(results, null, 2) + '\n');
  console.log(`Written to ${path.relative(process.cwd(), resultsPath) || resultsPath}`);
}

await main();
