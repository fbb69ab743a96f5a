import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface Centre {
  latitude: number;
  longitude: number;
}

type PostalTable = { lookup(code: string): Partial<Centre> | undefined };

let centres: Map<string, Centre> | null = null;
let fallback: PostalTable | null = null;

/**
 * The centre of a US ZIP code (5 digits) or a Canadian postal area (its first 3 characters, upper case), from the
 * `zipcodes` package's data. Loading that package builds about 44,000 objects (city, state, country...) from 5 MB of
 * JavaScript, about 95 MB of memory; only code → centre is needed here, so its two data files are read once, when
 * the first row needs them, as text and kept as one map (about 20 MB while reading, 6 MB after). Should a future
 * version of the package store them differently, the package itself answers.
 */
export function postalCentre(code: string): Centre | null {
  if (!centres && !fallback) load();
  if (centres) return centres.get(code) ?? null;
  const hit = fallback!.lookup(code);
  return hit && Number.isFinite(hit.latitude) && Number.isFinite(hit.longitude)
    ? { latitude: hit.latitude!, longitude: hit.longitude! }
    : null;
}

function load() {
  const require = createRequire(import.meta.url);
  const folder = path.dirname(require.resolve('zipcodes'));
  const found = new Map<string, Centre>();
  try {
    for (const file of ['codes.js', 'codesCanada.js']) {
      const text = readFileSync(path.join(folder, file), 'utf8');
      for (const match of text.matchAll(/"zip":"([^"]+)","latitude":(-?[\d.]+),"longitude":(-?[\d.]+)/g)) {
        found.set(match[1], { latitude: Number(match[2]), longitude: Number(match[3]) });
      }
    }
  } catch {
    found.clear();
  }
  if (found.size > 40_000) centres = found;
  else fallback = require('zipcodes') as PostalTable;
}
