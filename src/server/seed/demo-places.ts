import { type AreaGeometry, type BBox, bboxOf, pointInGeometry } from '../regions/geometry.js';
import { type UsShape, usShapes } from '../regions/us-atlas.js';
import type { Random } from './prng.js';

/** The demo organisation's state: California (FIPS 06). */
export const DEMO_STATE = '06';

/**
 * Metro areas where the demo's job sites and contractors are, each with the FIPS code of the county it lies in,
 * its centre, the first three digits of its ZIP codes, how far sites spread around it (degrees), its share of the
 * sites, and how much of its construction is union (so the map's union share differs from county to county).
 */
export const METROS = [
  { city: 'Los Angeles', county: '06037', lat: 34.05, lng: -118.25, zip: '900', spread: 0.35, weight: 5, union: 0.6 },
  { city: 'Long Beach', county: '06037', lat: 33.8, lng: -118.17, zip: '908', spread: 0.1, weight: 1, union: 0.7 },
  { city: 'Anaheim', county: '06059', lat: 33.82, lng: -117.9, zip: '928', spread: 0.15, weight: 1, union: 0.35 },
  { city: 'San Diego', county: '06073', lat: 32.76, lng: -117.1, zip: '921', spread: 0.25, weight: 2, union: 0.4 },
  { city: 'Riverside', county: '06065', lat: 33.95, lng: -117.4, zip: '925', spread: 0.2, weight: 1, union: 0.15 },
  {
    city: 'San Bernardino',
    county: '06071',
    lat: 34.11,
    lng: -117.29,
    zip: '924',
    spread: 0.12,
    weight: 1,
    union: 0.2,
  },
  { city: 'Oxnard', county: '06111', lat: 34.2, lng: -119.15, zip: '930', spread: 0.1, weight: 1, union: 0.3 },
  { city: 'Bakersfield', county: '06029', lat: 35.37, lng: -119.02, zip: '933', spread: 0.12, weight: 1, union: 0.1 },
  { city: 'Fresno', county: '06019', lat: 36.74, lng: -119.79, zip: '937', spread: 0.12, weight: 1, union: 0.2 },
  { city: 'San Francisco', county: '06075', lat: 37.76, lng: -122.44, zip: '941', spread: 0.06, weight: 2, union: 0.9 },
  { city: 'Oakland', county: '06001', lat: 37.8, lng: -122.24, zip: '946', spread: 0.12, weight: 1, union: 0.85 },
  { city: 'San Jose', county: '06085', lat: 37.34, lng: -121.89, zip: '951', spread: 0.15, weight: 2, union: 0.6 },
  { city: 'Stockton', county: '06077', lat: 37.96, lng: -121.29, zip: '952', spread: 0.1, weight: 1, union: 0.3 },
  { city: 'Sacramento', county: '06067', lat: 38.58, lng: -121.45, zip: '958', spread: 0.15, weight: 1, union: 0.55 },
  { city: 'Santa Rosa', county: '06097', lat: 38.44, lng: -122.71, zip: '954', spread: 0.08, weight: 1, union: 0.45 },
] as const;

export type Metro = (typeof METROS)[number];

export interface County extends UsShape {
  /** The county's own name as addresses give it ("Los Angeles"). */
  short: string;
  box: BBox;
}

/** The Census shapes of the demo's state and of all its counties. */
export function demoShapes(): { state: UsShape; counties: County[] } {
  const state = usShapes('states', [DEMO_STATE]).find((s) => s.code === DEMO_STATE);
  if (!state) throw new Error(`The us-atlas package has no state ${DEMO_STATE}.`);
  const counties = usShapes('counties', [DEMO_STATE]).map((c) => ({
    ...c,
    short: c.name.replace(/ County, [A-Z]{2}$/, ''),
    box: bboxOf(c.geometry),
  }));
  return { state, counties };
}

const inside = (lng: number, lat: number, county: { box: BBox; geometry: AreaGeometry }) =>
  lng >= county.box[0] &&
  lng <= county.box[2] &&
  lat >= county.box[1] &&
  lat <= county.box[3] &&
  pointInGeometry(lng, lat, county.geometry);

/**
 * A point around a metro that lies inside the metro's county shape (not in the sea, not over the county line):
 * drawn again until it does, and the metro's centre if forty draws miss.
 */
export function pointIn(rand: Random, metro: Metro, county: County): { latitude: number; longitude: number } {
  for (let attempt = 0; attempt < 40; attempt++) {
    const latitude = Number((metro.lat + (rand.next() - 0.5) * metro.spread).toFixed(6));
    const longitude = Number((metro.lng + (rand.next() - 0.5) * metro.spread * 1.2).toFixed(6));
    if (inside(longitude, latitude, county)) return { latitude, longitude };
  }
  return { latitude: metro.lat, longitude: metro.lng };
}

/** The county among `counties` whose shape holds the point, or null. */
export function countyAt(counties: readonly County[], latitude: number, longitude: number): County | null {
  return counties.find((c) => inside(longitude, latitude, c)) ?? null;
}
