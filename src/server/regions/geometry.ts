import turfBbox from '@turf/bbox';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';

/**
 * Geometry for region shapes (GeoJSON Polygon and MultiPolygon in longitude/latitude): bounding boxes and
 * point-in-polygon with holes (Turf), Douglas-Peucker simplification for display, coordinate rounding and validation
 * of uploaded shapes. No database, no I/O: everything here is unit-tested on its own.
 *
 * The simplification is our own: @turf/simplify keeps every island and hole however small, does not round, and throws
 * on the degenerate rings some Census county shapes have ("invalid polygon, fewer than 4 points"); this one drops
 * what is smaller than a pixel and keeps each shape's largest ring.
 */

export type Position = [number, number];
export type Ring = Position[];
export interface PolygonGeometry {
  type: 'Polygon';
  coordinates: Ring[];
}
export interface MultiPolygonGeometry {
  type: 'MultiPolygon';
  coordinates: Ring[][];
}
export type AreaGeometry = PolygonGeometry | MultiPolygonGeometry;

/** [minLng, minLat, maxLng, maxLat] */
export type BBox = [number, number, number, number];

/** The polygons of a shape, each as [outer ring, ...holes]. */
export function polygonsOf(geometry: AreaGeometry): Ring[][] {
  return geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
}

/** [minLng, minLat, maxLng, maxLat] of a shape (@turf/bbox). */
export function bboxOf(geometry: AreaGeometry): BBox {
  return turfBbox(geometry) as BBox;
}

/**
 * Inside the outer ring of some polygon and outside all of that polygon's holes (@turf/boolean-point-in-polygon). A
 * point exactly on an edge counts as inside.
 */
export function pointInGeometry(lng: number, lat: number, geometry: AreaGeometry): boolean {
  return booleanPointInPolygon([lng, lat], geometry);
}

/** Squared distance from p to the segment a-b (planar, in degrees: good enough for display simplification). */
function segmentDistanceSq(p: Position, a: Position, b: Position): number {
  let x = a[0];
  let y = a[1];
  let dx = b[0] - x;
  let dy = b[1] - y;
  if (dx !== 0 || dy !== 0) {
    const t = ((p[0] - x) * dx + (p[1] - y) * dy) / (dx * dx + dy * dy);
    if (t > 1) {
      x = b[0];
      y = b[1];
    } else if (t > 0) {
      x += dx * t;
      y += dy * t;
    }
  }
  dx = p[0] - x;
  dy = p[1] - y;
  return dx * dx + dy * dy;
}

/** Douglas-Peucker on an open or closed line; keeps the first and last points. Iterative (no deep recursion). */
export function simplifyLine(points: Position[], tolerance: number): Position[] {
  if (points.length <= 2 || tolerance <= 0) return points.slice();
  const sqTolerance = tolerance * tolerance;
  const keep = new Uint8Array(points.length);
  keep[0] = 1;
  keep[points.length - 1] = 1;
  const stack: Array<[number, number]> = [[0, points.length - 1]];
  while (stack.length) {
    const [first, last] = stack.pop()!;
    let maxSq = 0;
    let index = -1;
    for (let i = first + 1; i < last; i++) {
      const d = segmentDistanceSq(points[i], points[first], points[last]);
      if (d > maxSq) {
        maxSq = d;
        index = i;
      }
    }
    if (index !== -1 && maxSq > sqTolerance) {
      keep[index] = 1;
      stack.push([first, index], [index, last]);
    }
  }
  const out: Position[] = [];
  for (let i = 0; i < points.length; i++) if (keep[i]) out.push(points[i]);
  return out;
}

/**
 * A closed ring simplified; a ring that would collapse below 4 positions (a triangle, closed) is dropped
 * (null) when it is smaller than the tolerance, else kept as its simplest triangle.
 */
export function simplifyRing(ring: Ring, tolerance: number): Ring | null {
  if (ring.length < 4) return null;
  // Split the closed ring at its farthest point from the start so Douglas-Peucker has two real ends.
  let far = 0;
  let farSq = -1;
  for (let i = 1; i < ring.length - 1; i++) {
    const dx = ring[i][0] - ring[0][0];
    const dy = ring[i][1] - ring[0][1];
    const d = dx * dx + dy * dy;
    if (d > farSq) {
      farSq = d;
      far = i;
    }
  }
  const a = simplifyLine(ring.slice(0, far + 1), tolerance);
  const b = simplifyLine(ring.slice(far), tolerance);
  const out = a.concat(b.slice(1));
  if (out.length >= 4) return out;
  // Collapsed to a line (start, far point, start): drop it if it is tiny, else keep it as a triangle.
  if (Math.sqrt(farSq) < tolerance) return null;
  let third = -1;
  let thirdSq = -1;
  for (let i = 1; i < ring.length - 1; i++) {
    if (i === far) continue;
    const d = segmentDistanceSq(ring[i], ring[0], ring[far]);
    if (d > thirdSq) {
      thirdSq = d;
      third = i;
    }
  }
  if (third === -1) return null;
  return third < far ? [ring[0], ring[third], ring[far], ring[0]] : [ring[0], ring[far], ring[third], ring[0]];
}

/**
 * A shape simplified for display at a tolerance in degrees, with coordinates rounded to `decimals`. Holes
 * and islands smaller than the tolerance disappear; an entire shape never does (its largest outer ring stays).
 */
export function simplifyGeometry(geometry: AreaGeometry, tolerance: number, decimals: number): AreaGeometry | null {
  const factor = 10 ** decimals;
  const round = (ring: Ring): Ring => {
    const out: Ring = [];
    for (const [lng, lat] of ring) {
      const p: Position = [Math.round(lng * factor) / factor, Math.round(lat * factor) / factor];
      const prev = out[out.length - 1];
      if (!prev || prev[0] !== p[0] || prev[1] !== p[1]) out.push(p);
    }
    return out;
  };
  const polygons: Ring[][] = [];
  for (const polygon of polygonsOf(geometry)) {
    const outer = simplifyRing(polygon[0] ?? [], tolerance);
    if (!outer) continue;
    const rings: Ring[] = [round(outer)];
    for (let h = 1; h < polygon.length; h++) {
      const hole = simplifyRing(polygon[h], tolerance);
      if (hole) rings.push(round(hole));
    }
    if (rings[0].length >= 4) polygons.push(rings.filter((r) => r.length >= 4));
  }
  if (polygons.length === 0) {
    // Everything was smaller than the tolerance: keep the largest outer ring's bounding box as a dot of a shape.
    const [minLng, minLat, maxLng, maxLat] = bboxOf(geometry);
    if (!Number.isFinite(minLng)) return null;
    const r = (v: number) => Math.round(v * factor) / factor;
    return {
      type: 'Polygon',
      coordinates: [
        [
          [r(minLng), r(minLat)],
          [r(maxLng), r(minLat)],
          [r(maxLng), r(maxLat)],
          [r(minLng), r(maxLat)],
          [r(minLng), r(minLat)],
        ],
      ],
    };
  }
  return polygons.length === 1
    ? { type: 'Polygon', coordinates: polygons[0] }
    : { type: 'MultiPolygon', coordinates: polygons };
}

/** The tolerance (degrees, about one screen pixel) and rounding for drawing shapes at a web-map zoom level. */
export function displayPrecision(zoom: number): { tolerance: number; decimals: number } {
  const z = Math.max(0, Math.min(20, Math.floor(zoom)));
  const degreesPerPixel = 360 / (256 * 2 ** z);
  const decimals = Math.max(1, Math.min(6, Math.ceil(-Math.log10(degreesPerPixel / 2))));
  return { tolerance: degreesPerPixel, decimals };
}

/** Counts the positions of a shape (for limits). */
export function vertexCount(geometry: AreaGeometry): number {
  let n = 0;
  for (const polygon of polygonsOf(geometry)) for (const ring of polygon) n += ring.length;
  return n;
}

export class GeometryError extends Error {}

const isPosition = (p: unknown): p is Position =>
  Array.isArray(p) &&
  p.length >= 2 &&
  typeof p[0] === 'number' &&
  typeof p[1] === 'number' &&
  Number.isFinite(p[0]) &&
  Number.isFinite(p[1]);

function checkRing(ring: unknown, where: string): Ring {
  if (!Array.isArray(ring)) throw new GeometryError(`${where} is not a list of positions.`);
  if (ring.length < 4)
    throw new GeometryError(`${where} has fewer than 4 positions (a ring needs at least a closed triangle).`);
  const out: Ring = [];
  for (const [i, p] of ring.entries()) {
    if (!isPosition(p))
      throw new GeometryError(`${where}, position ${i + 1} is not a [longitude, latitude] pair of numbers.`);
    const [lng, lat] = p;
    if (lng < -180 || lng > 180 || lat < -90 || lat > 90) {
      throw new GeometryError(
        `${where}, position ${i + 1} (${lng}, ${lat}) is outside longitude -180..180 / latitude -90..90. Is the file in a projected coordinate system instead of WGS 84?`,
      );
    }
    out.push([lng, lat]);
  }
  const first = out[0];
  const last = out[out.length - 1];
  if (first[0] !== last[0] || first[1] !== last[1])
    throw new GeometryError(`${where} is not closed (its first and last positions differ).`);
  return out;
}

/** Checks a GeoJSON geometry object and returns a clean Polygon or MultiPolygon (extra members dropped). */
export function parseAreaGeometry(value: unknown, where = 'The geometry'): AreaGeometry {
  if (!value || typeof value !== 'object') throw new GeometryError(`${where} is missing.`);
  const g = value as { type?: unknown; coordinates?: unknown };
  if (g.type === 'Polygon') {
    if (!Array.isArray(g.coordinates) || g.coordinates.length === 0) throw new GeometryError(`${where} has no rings.`);
    return { type: 'Polygon', coordinates: g.coordinates.map((ring, r) => checkRing(ring, `${where}, ring ${r + 1}`)) };
  }
  if (g.type === 'MultiPolygon') {
    if (!Array.isArray(g.coordinates) || g.coordinates.length === 0)
      throw new GeometryError(`${where} has no polygons.`);
    return {
      type: 'MultiPolygon',
      coordinates: g.coordinates.map((polygon, p) => {
        if (!Array.isArray(polygon) || polygon.length === 0)
          throw new GeometryError(`${where}, polygon ${p + 1} has no rings.`);
        return polygon.map((ring, r) => checkRing(ring, `${where}, polygon ${p + 1}, ring ${r + 1}`));
      }),
    };
  }
  throw new GeometryError(
    `${where} must be a Polygon or MultiPolygon, not ${typeof g.type === 'string' ? g.type : 'a shape without a type'}.`,
  );
}

/** Does the box [w, s, e, n] (w may be > e: it crosses the antimeridian) overlap the region box? */
export function bboxIntersects(view: BBox, box: BBox): boolean {
  const [w, s, e, n] = view;
  if (box[1] > n || box[3] < s) return false;
  if (w <= e) return box[0] <= e && box[2] >= w;
  return box[2] >= w || box[0] <= e;
}
