/** A GeoJSON polygon: the square of `size` degrees either side of a point (a turf or region drawn around a site). */
export const square = (lat: number, lng: number, size = 0.2) => ({
  type: 'Polygon',
  coordinates: [
    [
      [lng - size, lat - size],
      [lng + size, lat - size],
      [lng + size, lat + size],
      [lng - size, lat + size],
      [lng - size, lat - size],
    ],
  ],
});
