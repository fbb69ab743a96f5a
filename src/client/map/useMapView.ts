/**
 * Where the map looks: the view from the address (`?lat=&lng=&z=`) when there is one, kept in the address as the map
 * moves (so a reload or a shared link opens the same place); otherwise fitted once to the sites' bounds when the
 * first markers answer. `flyTo` jumps to a search hit.
 */

import type L from 'leaflet';
import { useCallback, useEffect, useRef } from 'react';
import type { MapSearchHit as SearchHit } from '../../common/map-types';

export const DEFAULT_VIEW = { center: [39.5, -98.35] as [number, number], zoom: 4 };

type Bounds = [west: number, south: number, east: number, north: number];

export function viewFromUrl(search = window.location.search): { center: [number, number]; zoom: number } | null {
  const params = new URLSearchParams(search);
  const lat = Number(params.get('lat'));
  const lng = Number(params.get('lng'));
  const zoom = Number(params.get('z'));
  if (!params.has('lat') || !Number.isFinite(lat) || !Number.isFinite(lng) || !Number.isFinite(zoom)) return null;
  return { center: [lat, lng], zoom };
}

const corners = ([w, s, e, n]: Bounds): [[number, number], [number, number]] => [
  [s, w],
  [n, e],
];

export function useMapView(map: L.Map | null) {
  const initial = useRef(viewFromUrl());
  const fitted = useRef(Boolean(initial.current));

  useEffect(() => {
    if (!map) return;
    const remember = () => {
      const c = map.getCenter();
      const params = new URLSearchParams(window.location.search);
      params.set('lat', c.lat.toFixed(5));
      params.set('lng', c.lng.toFixed(5));
      params.set('z', String(map.getZoom()));
      window.history.replaceState(window.history.state, '', `${window.location.pathname}?${params}`);
    };
    // Once the person moves the map themselves, the first markers' fit would take them away from where they went.
    const settle = () => {
      fitted.current = true;
    };
    map.on('moveend', remember);
    map.on('dragstart', settle);
    return () => {
      map.off('moveend', remember);
      map.off('dragstart', settle);
    };
  }, [map]);

  /** The first answer's bounds frame the map, unless the address said where to look. */
  const fitOnce = useCallback(
    (bounds: Bounds | null) => {
      if (fitted.current || !map || !bounds) return;
      fitted.current = true;
      map.fitBounds(corners(bounds), { padding: [40, 40], maxZoom: 12 });
    },
    [map],
  );

  const flyTo = useCallback(
    (hit: SearchHit) => {
      if (!map) return;
      // A search answered before the first markers must not be undone by their fit.
      fitted.current = true;
      if (hit.bbox && hit.kind !== 'site')
        map.flyToBounds(corners(hit.bbox), { padding: [30, 30], maxZoom: 15, duration: 0.8 });
      else map.flyTo([hit.lat, hit.lng], 17, { duration: 0.8 });
    },
    [map],
  );

  return {
    center: initial.current?.center ?? DEFAULT_VIEW.center,
    zoom: initial.current?.zoom ?? DEFAULT_VIEW.zoom,
    fitOnce,
    flyTo,
  };
}
