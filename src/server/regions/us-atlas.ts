import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FeatureCollection } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { AreaGeometry } from './geometry.js';

/**
 * US states and counties from the `us-atlas` package: the Census Bureau's cartographic boundary files
 * (public domain) at 1:10,000,000, as TopoJSON. Converted to GeoJSON with topojson-client on demand.
 */
export type UsLevel = 'states' | 'counties';

export interface UsShape {
  geometry_type: 'state' | 'county';
  /** FIPS code: 2 digits for a state, 5 for a county. */
  code: string;
  name: string;
  geometry: AreaGeometry;
}

export const STATE_ABBREVIATIONS: Record<string, string> = {
  '01': 'AL',
  '02': 'AK',
  '04': 'AZ',
  '05': 'AR',
  '06': 'CA',
  '08': 'CO',
  '09': 'CT',
  '10': 'DE',
  '11': 'DC',
  '12': 'FL',
  '13': 'GA',
  '15': 'HI',
  '16': 'ID',
  '17': 'IL',
  '18': 'IN',
  '19': 'IA',
  '20': 'KS',
  '21': 'KY',
  '22': 'LA',
  '23': 'ME',
  '24': 'MD',
  '25': 'MA',
  '26': 'MI',
  '27': 'MN',
  '28': 'MS',
  '29': 'MO',
  '30': 'MT',
  '31': 'NE',
  '32': 'NV',
  '33': 'NH',
  '34': 'NJ',
  '35': 'NM',
  '36': 'NY',
  '37': 'NC',
  '38': 'ND',
  '39': 'OH',
  '40': 'OK',
  '41': 'OR',
  '42': 'PA',
  '44': 'RI',
  '45': 'SC',
  '46': 'SD',
  '47': 'TN',
  '48': 'TX',
  '49': 'UT',
  '50': 'VT',
  '51': 'VA',
  '53': 'WA',
  '54': 'WV',
  '55': 'WI',
  '56': 'WY',
  '60': 'AS',
  '66': 'GU',
  '69': 'MP',
  '72': 'PR',
  '78': 'VI',
};

const require = createRequire(import.meta.url);
const topologies = new Map<UsLevel, Topology>();

function topology(level: UsLevel): Topology {
  let topo = topologies.get(level);
  if (!topo) {
    const file = require.resolve(level === 'states' ? 'us-atlas/states-10m.json' : 'us-atlas/counties-10m.json');
    topo = JSON.parse(readFileSync(file, 'utf8')) as Topology;
    topologies.set(level, topo);
  }
  return topo;
}

/** Forgets the parsed files (the counties file is about 6 MB of objects) after a one-off use such as seeding the demo. */
export function releaseUsShapes() {
  topologies.clear();
}

/** How the Census names a county-level area in its state. */
export function countyName(code: string, name: string): string {
  const state = code.slice(0, 2);
  const abbreviation = STATE_ABBREVIATIONS[state] ?? state;
  let full = name;
  if (/\b(city|County|Parish|Borough|Municipio)$/i.test(name) || ['02', '11', '60', '66', '69', '78'].includes(state))
    full = name;
  else if (state === '22') full = `${name} Parish`;
  else if (state === '72') full = `${name} Municipio`;
  else if (state === '51' && Number(code.slice(2)) >= 510) full = `${name} city`;
  else if (state === '24' && code === '24510') full = `${name} city`;
  else if (state === '29' && code === '29510') full = `${name} city`;
  else full = `${name} County`;
  return `${full}, ${abbreviation}`;
}

/**
 * The shapes of one level, optionally only those of some states (2-digit FIPS codes). Shapes without an
 * area (none in the current release) are skipped.
 */
export function usShapes(level: UsLevel, states?: readonly string[]): UsShape[] {
  const topo = topology(level);
  const wanted = states?.length ? new Set(states) : null;
  // Only the wanted states' shapes are converted (the counties of one state are a fiftieth of the file).
  const all = topo.objects[level] as GeometryCollection;
  const object = wanted
    ? { ...all, geometries: all.geometries.filter((g) => wanted.has(String(g.id ?? '').slice(0, 2))) }
    : all;
  const collection = feature(topo, object) as unknown as FeatureCollection;
  const out: UsShape[] = [];
  for (const f of collection.features) {
    const code = String(f.id ?? '');
    if (!code || !f.geometry || (f.geometry.type !== 'Polygon' && f.geometry.type !== 'MultiPolygon')) continue;
    if (wanted && !wanted.has(code.slice(0, 2))) continue;
    const name = String((f.properties as any)?.name ?? code);
    out.push({
      geometry_type: level === 'states' ? 'state' : 'county',
      code,
      name: level === 'states' ? name : countyName(code, name),
      geometry: f.geometry as AreaGeometry,
    });
  }
  return out;
}

/** 2-digit FIPS code for a state given by code, abbreviation or name; null when unknown. */
export function stateCode(value: string): string | null {
  const v = value.trim();
  if (/^\d{1,2}$/.test(v)) {
    const code = v.padStart(2, '0');
    return STATE_ABBREVIATIONS[code] ? code : null;
  }
  const upper = v.toUpperCase();
  for (const [code, abbreviation] of Object.entries(STATE_ABBREVIATIONS)) if (abbreviation === upper) return code;
  const names = usShapes('states');
  return names.find((s) => s.name.toLowerCase() === v.toLowerCase())?.code ?? null;
}
