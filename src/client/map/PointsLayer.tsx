/**
 * The layer of a record type with a geo point (an inspection's location): its points in view, clustered on the
 * server (GET /api/map/points), asked for again after each move (and drawn anew, keyed by the live version, after a
 * change). A cluster zooms in to where it splits; a point
 * opens its record. Markers are divIcons whose text is set as text, never as HTML.
 */
import L from 'leaflet';
import { useEffect } from 'react';
import { useMap } from 'react-leaflet';
import type { PointLayer, PointsResponse } from '../../common/map-types';
import type { Query } from '../http/query';
import { useAppDataProvider } from '../records/hooks';

const DEBOUNCE_MS = 150;

function iconOf(text: string) {
  const span = document.createElement('span');
  span.textContent = text;
  return span;
}

export function PointsLayer({
  layer,
  onOpen,
  onError,
  listQuery,
  onLoaded,
}: {
  layer: PointLayer;
  onOpen: (resource: string, id: number) => void;
  onError: (error: unknown) => void;
  /** The list's query (its filters and saved view) when the layer draws a list (views/layouts/MapLayout.tsx). */
  listQuery?: Query;
  onLoaded?: (meta: PointsResponse['meta']) => void;
}) {
  const map = useMap();
  const dataProvider = useAppDataProvider();
  useEffect(() => {
    const group = L.layerGroup().addTo(map);
    let controller: AbortController | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const load = async () => {
      controller?.abort();
      const mine = new AbortController();
      controller = mine;
      const b = map.getBounds();
      try {
        const { data: items, meta } = await dataProvider.mapPoints(
          layer.type,
          [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()],
          Math.round(map.getZoom()),
          mine.signal,
          listQuery ? { query: listQuery, by: layer.field } : undefined,
        );
        if (mine.signal.aborted) return;
        onLoaded?.(meta);
        group.clearLayers();
        for (const item of items) {
          const cluster = item.kind === 'cluster';
          const label = cluster
            ? `${item.count.toLocaleString('en-US')} ${layer.name}: zoom in`
            : `${item.name || `${layer.name} ${item.id}`} (${layer.name})`;
          const marker = L.marker([item.lat, item.lng], {
            icon: L.divIcon({
              className: cluster ? 'om-cluster om-cluster-points' : 'om-pin om-point',
              html: iconOf(cluster ? item.count.toLocaleString('en-US') : ''),
              iconSize: cluster ? [30, 30] : [16, 16],
            }),
            keyboard: true,
            title: label,
            alt: label,
          });
          marker.on('add', () => {
            const element = marker.getElement();
            if (!element) return;
            element.setAttribute('aria-label', label);
            element.setAttribute('role', 'button');
            element.dataset.testid = cluster ? 'map-point-cluster' : 'map-point';
            element.dataset.id = String(item.id);
          });
          marker.on('click keypress', (event: L.LeafletEvent) => {
            const key = (event as L.LeafletKeyboardEvent).originalEvent?.key;
            if (event.type === 'keypress' && key !== 'Enter' && key !== ' ') return;
            if (item.kind === 'cluster')
              map.flyTo(marker.getLatLng(), Math.max(item.expansion_zoom, map.getZoom() + 1), { duration: 0.5 });
            else onOpen(layer.resource, item.id);
          });
          marker.addTo(group);
        }
      } catch (error) {
        if (!mine.signal.aborted && (error as { kind?: string })?.kind !== 'cancelled') onError(error);
      }
    };
    const schedule = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void load(), DEBOUNCE_MS);
    };
    map.on('moveend', schedule);
    schedule();
    return () => {
      map.off('moveend', schedule);
      if (timer) clearTimeout(timer);
      controller?.abort();
      group.remove();
    };
  }, [dataProvider, map, layer, onOpen, onError, listQuery, onLoaded]);
  return null;
}
