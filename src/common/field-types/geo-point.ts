import * as z from 'zod/mini';
import { defineFieldType } from './define.js';
import { COMMON } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_FILTERS } from './sql.js';

export interface GeoPoint {
  lat: number;
  lng: number;
}

const COORDINATES = 'A location is {"lat": latitude from -90 to 90, "lng": longitude from -180 to 180}.';

/** A point on the earth: latitude and longitude in degrees, nothing else. */
export const GEO_POINT = z.strictObject(
  {
    lat: z.number(COORDINATES).check(z.gte(-90, COORDINATES), z.lte(90, COORDINATES)),
    lng: z.number(COORDINATES).check(z.gte(-180, COORDINATES), z.lte(180, COORDINATES)),
  },
  COORDINATES,
);

/** `40.7128, -74.006` (or with a space, a semicolon): how files and people write a point. */
const WRITTEN = /^\s*(-?\d+(?:\.\d+)?)\s*[,; ]\s*(-?\d+(?:\.\d+)?)\s*$/;

/** A point as people read it: `40.7128, -74.006`. */
export function geoPointWords(value: unknown): string {
  const point = GEO_POINT.safeParse(value);
  return point.success ? `${point.data.lat}, ${point.data.lng}` : '';
}

/**
 * A geo point: `{lat, lng}`, checked to be on the earth. Forms pick it on a small map or type it; a file's cell is
 * `lat, lng` (or the JSON an export writes). A record type with one is a layer of the map. Lists find records by
 * whether they have one; they do not sort by it.
 */
export const geoPoint = defineFieldType({
  type: 'geo-point',
  label: 'Geo point',
  options: z.strictObject({ ...COMMON }),
  checkOptions: (options) => options,
  validation: () => ['required', 'default', 'read_only'],
  kind: () => 'json',
  spec: () => ({ sortable: false, shape: GEO_POINT, max: 100 }),
  fromCell(cell) {
    const written = WRITTEN.exec(cell);
    if (written) return { ok: true, value: { lat: Number(written[1]), lng: Number(written[2]) } };
    try {
      return { ok: true, value: JSON.parse(cell) };
    } catch {
      return { ok: false, error: `"${cell.slice(0, 40)}" is not a location: write it "latitude, longitude".` };
    }
  },
  toCell: 'value',
  filters: { null: STANDARD_FILTERS.null },
  sort: null,
  filterIndex: STANDARD_FILTER_INDEX,
  words: geoPointWords,
  textual: false,
  groupable: false,
});
