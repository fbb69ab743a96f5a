import type { AreaGeometry } from '../../../src/server/regions/geometry.js';

/** A star-shaped ring of `n` corners around a point (jagged, as a hand-drawn shape is), closed. */
export function drawnTurf(lat: number, lng: number, n: number): AreaGeometry {
  const ring: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) {
    const angle = (2 * Math.PI * i) / n;
    const radius = i % 2 ? 2.2 : 2.6;
    ring.push([lng + radius * Math.cos(angle), lat + radius * Math.sin(angle)]);
  }
  ring.push(ring[0]);
  return { type: 'Polygon', coordinates: [ring] };
}
