import { ValidationError } from '../http/errors.js';

/** Web Mercator cannot show the poles: latitudes are clamped to what the map can draw. */
export const MAX_LATITUDE = 85.05112878;
export const MAX_ZOOM = 22;

export interface Viewport {
  /** West, south, east, north in degrees; west > east means the box crosses the antimeridian (180°). */
  bbox: [number, number, number, number];
  zoom: number;
}

/** Any longitude (Leaflet gives e.g. 190 after panning east past 180) as -180..180. */
export function wrapLongitude(lng: number): number {
  if (lng >= -180 && lng <= 180) return lng;
  return ((((lng + 180) % 360) + 360) % 360) - 180;
}

export const clampLatitude = (lat: number) => Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat));

/**
 * A viewport from query parameters `bbox=west,south,east,north` (or `west`, `south`, `east`, `north`) and
 * `zoom`. Longitudes may be unwrapped (170..190) as a map reports them after panning across the antimeridian;
 * a box 360° wide or more is the whole world. Latitudes are clamped to ±85.05.
 */
export function parseViewport(query: Record<string, unknown>, options: { zoomRequired?: boolean } = {}): Viewport {
  const errors: Record<string, string[]> = {};
  let parts: unknown[];
  if (query.bbox !== undefined) {
    parts = Array.isArray(query.bbox) ? query.bbox : String(query.bbox).split(',');
  } else if (
    query.west !== undefined ||
    query.south !== undefined ||
    query.east !== undefined ||
    query.north !== undefined
  ) {
    parts = [query.west, query.south, query.east, query.north];
  } else {
    parts = [-180, -90, 180, 90];
  }
  const numbers = parts.map((p) => (p === '' || p === null || p === undefined ? Number.NaN : Number(p)));
  if (numbers.length !== 4 || numbers.some((n) => !Number.isFinite(n))) {
    errors.bbox = ['The bbox must be four numbers: west,south,east,north (degrees).'];
  }
  let zoom = 0;
  if (query.zoom === undefined || query.zoom === '') {
    if (options.zoomRequired) errors.zoom = ['The zoom is required (0 to 22).'];
  } else {
    zoom = Number(query.zoom);
    if (!Number.isFinite(zoom) || zoom < 0 || zoom > MAX_ZOOM)
      errors.zoom = [`The zoom must be a number from 0 to ${MAX_ZOOM}.`];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);

  let [west, south, east, north] = numbers;
  if (south > north)
    throw new ValidationError({ bbox: ['The south edge of the bbox must not be north of its north edge.'] });
  south = clampLatitude(south);
  north = clampLatitude(north);
  if (east - west >= 360 || (west === -180 && east === 180)) {
    west = -180;
    east = 180;
  } else {
    if (east < west) east += 360; // given as crossing already (e.g. 170,-,-170): keep the intended span
    west = wrapLongitude(west);
    east = wrapLongitude(east);
    if (east === -180 && west > -180) east = 180;
  }
  return { bbox: [west, south, east, north], zoom: Math.floor(zoom) };
}

/** The one or two boxes (west <= east each) a viewport covers: two when it crosses the antimeridian. */
export function splitAtAntimeridian([west, south, east, north]: Viewport['bbox']): Array<
  [number, number, number, number]
> {
  if (west <= east) return [[west, south, east, north]];
  return [
    [west, south, 180, north],
    [-180, south, east, north],
  ];
}
