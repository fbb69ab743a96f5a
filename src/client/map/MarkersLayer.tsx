/**
 * Markers for the viewport, clustered on the server: after each move (debounced) the map asks
 * /api/map/markers for its bounding box and zoom, cancelling a request the map has already moved past.
 * Markers are Leaflet divIcons (focusable, labelled) reused between answers so nothing flickers; a cluster
 * zooms in to where it splits, a point opens its card.
 */

import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useMap } from 'react-leaflet';
import type { MapLayer as Layer, MapFilterValues, MarkerItem, MarkersResponse } from '../../common/map-types';
import { useAppDataProvider } from '../records/hooks';
import { CONTRACTOR_COLORS, statusColor, statusGlyph, typeColor } from './colors';

export interface MarkersLayerProps {
  layers: Layer[];
  filters: MapFilterValues;
  /** Changes whenever sites or contractors changed somewhere (live updates): markers are asked for again. */
  version: number;
  typeColors: Record<string, string | null | undefined>;
  statusColors: Record<number, string | null | undefined>;
  typeLabels: Record<string, string>;
  statusLabels: Record<number, string>;
  contractorTypeLabels: Record<string, string>;
  onSelect: (marker: { kind: 'site' | 'contractor'; id: number }) => void;
  onLoaded: (response: MarkersResponse) => void;
  onError: (error: unknown) => void;
  onLoading?: (loading: boolean) => void;
}

const DEBOUNCE_MS = 120;

function clusterSize(count: number) {
  return Math.round(Math.min(54, 28 + Math.log10(count) * 7));
}

/**
 * A marker's inside as an element: Leaflet puts an `html` string in as HTML, so nothing from the data (type and
 * status colours, counts) is ever written into one; colours set through the style object cannot break out of it.
 */
function iconContent({ text, background, borderColor }: { text?: string; background?: string; borderColor?: string }) {
  const span = document.createElement('span');
  if (text !== undefined) span.textContent = text;
  if (background) span.style.background = background;
  if (borderColor) span.style.borderColor = borderColor;
  return span;
}

function keyOf(item: MarkerItem) {
  return item.kind === 'cluster' ? `c:${item.layer}:${item.id}` : `${item.kind}:${item.id}`;
}

/** Longitude shifted by whole turns to be nearest the view's centre (which Leaflet lets pass 180° when panning). */
const wrapNear = (lng: number, centre: number) => lng + 360 * Math.round((centre - lng) / 360);

export function MarkersLayer(props: MarkersLayerProps) {
  const dataProvider = useAppDataProvider();
  const map = useMap();
  const latest = useRef(props);
  latest.current = props;
  const markers = useRef(new Map<string, { marker: L.Marker; signature: string }>());
  const group = useRef<L.LayerGroup | null>(null);
  const controller = useRef<AbortController | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // The last answer and how to draw it: labels and colours arriving after it redraw what is on the map.
  const shown = useRef<MarkerItem[]>([]);
  const draw = useRef<((items: MarkerItem[]) => void) | null>(null);

  useEffect(() => {
    const layerGroup = L.layerGroup().addTo(map);
    group.current = layerGroup;
    return () => {
      layerGroup.remove();
      markers.current.clear();
      controller.current?.abort();
      if (timer.current) clearTimeout(timer.current);
    };
  }, [map]);

  useEffect(() => {
    const render = (items: MarkerItem[]) => {
      shown.current = items;
      const { typeColors, statusColors, typeLabels, statusLabels, contractorTypeLabels, onSelect } = latest.current;
      const centre = map.getCenter().lng;
      const seen = new Set<string>();
      for (const item of items) {
        const key = keyOf(item);
        seen.add(key);
        const lng = wrapNear(item.lng, centre);
        let html: HTMLElement;
        let size: number;
        let anchor: [number, number] | undefined;
        let label: string;
        let className: string;
        if (item.kind === 'cluster') {
          size = item.layer === 'sites' ? clusterSize(item.count) : Math.min(34, clusterSize(item.count) - 8);
          // Contractor clusters sit to the lower right of their point, so a site cluster at the same place stays readable.
          if (item.layer === 'contractors') anchor = [-6, -6];
          const noun =
            item.layer === 'sites'
              ? item.count === 1
                ? 'site'
                : 'sites'
              : item.count === 1
                ? 'contractor'
                : 'contractors';
          label = `${item.count.toLocaleString('en-US')} ${noun}: zoom in`;
          className = `om-cluster om-cluster-${item.layer}`;
          html = iconContent({
            text: item.count >= 10_000 ? `${Math.round(item.count / 1000)}k` : item.count.toLocaleString('en-US'),
          });
        } else if (item.kind === 'site') {
          size = 20;
          const status = item.status_id === null ? 'no status' : (statusLabels[item.status_id] ?? 'status unknown');
          label = [item.name || `Site ${item.id}`, typeLabels[item.type] ?? item.type, status].join(', ');
          className = 'om-pin om-site';
          html = iconContent({
            text: statusGlyph(item.status_id),
            background: typeColor(item.type, typeColors),
            borderColor: statusColor(item.status_id, statusColors),
          });
        } else {
          size = 16;
          label = `${item.name || `Contractor ${item.id}`}, contractor (${contractorTypeLabels[item.type] ?? item.type})`;
          className = 'om-pin om-contractor';
          html = iconContent({ background: CONTRACTOR_COLORS[item.type] ?? '#757575' });
        }
        // The label is part of it: names arriving after the first draw (type and status labels) reach the marker.
        const signature = `${className}|${label}|${html.outerHTML}|${size}|${anchor ?? ''}`;
        const existing = markers.current.get(key);
        if (existing && existing.signature === signature) {
          const at = existing.marker.getLatLng();
          if (at.lat !== item.lat || at.lng !== lng) existing.marker.setLatLng([item.lat, lng]);
          continue;
        }
        existing?.marker.remove();
        const marker = L.marker([item.lat, lng], {
          icon: L.divIcon({ className, html, iconSize: [size, size], iconAnchor: anchor }),
          keyboard: true,
          title: label,
          alt: label,
          riseOnHover: true,
          zIndexOffset: item.kind === 'cluster' ? (item.layer === 'sites' ? 100 : 0) : item.kind === 'site' ? 500 : 400,
        });
        const element = () => marker.getElement();
        marker.on('add', () => {
          const el = element();
          if (!el) return;
          el.setAttribute('aria-label', label);
          el.setAttribute('role', 'button');
          el.dataset.testid = item.kind === 'cluster' ? 'map-cluster' : `map-${item.kind}`;
          el.dataset.id = String(item.id);
          if (item.kind === 'cluster') el.dataset.count = String(item.count);
        });
        marker.on('click keypress', (event: L.LeafletEvent) => {
          const key = (event as L.LeafletKeyboardEvent).originalEvent?.key;
          if (event.type === 'keypress' && key !== 'Enter' && key !== ' ') return;
          const current = marker.getLatLng();
          if (item.kind === 'cluster') {
            map.flyTo(current, Math.max(item.expansion_zoom, map.getZoom() + 1), { duration: 0.5 });
          } else {
            onSelect({ kind: item.kind, id: item.id });
          }
        });
        marker.addTo(group.current!);
        markers.current.set(key, { marker, signature });
      }
      for (const [key, entry] of markers.current) {
        if (!seen.has(key)) {
          entry.marker.remove();
          markers.current.delete(key);
        }
      }
    };

    const load = async () => {
      controller.current?.abort();
      const mine = new AbortController();
      controller.current = mine;
      const b = map.getBounds();
      const zoom = Math.round(map.getZoom());
      latest.current.onLoading?.(true);
      try {
        const response = await dataProvider.mapMarkers(
          [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()],
          zoom,
          latest.current.layers,
          latest.current.filters,
          mine.signal,
        );
        if (mine.signal.aborted) return;
        render(response.data);
        latest.current.onLoaded(response);
      } catch (error) {
        if (!mine.signal.aborted && (error as { kind?: string })?.kind !== 'cancelled') latest.current.onError(error);
      } finally {
        if (controller.current === mine) latest.current.onLoading?.(false);
      }
    };

    const schedule = () => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void load(), DEBOUNCE_MS);
    };

    draw.current = render;
    map.on('moveend', schedule);
    schedule();
    return () => {
      map.off('moveend', schedule);
      draw.current = null;
    };
  }, [dataProvider, map, props.layers.join(','), JSON.stringify(props.filters), props.version]);

  useEffect(() => {
    draw.current?.(shown.current);
  }, [props.typeLabels, props.statusLabels, props.contractorTypeLabels, props.typeColors, props.statusColors]);

  return null;
}
