/**
 * Region outlines (and, with a measure, fills) for the viewport, from /api/map/regions-geojson simplified for
 * the zoom: states always, counties from zoom 6, postal codes from zoom 9. Drawn under the markers on
 * the canvas renderer; they need no tiles, so the map stays readable offline.
 */

import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useMap } from 'react-leaflet';
import type { MapFilterValues, MapMeasure as Measure } from '../../common/map-types';
import { useAppDataProvider } from '../records/hooks';

export interface RegionsLayerProps {
  measure: Measure | null;
  filters: MapFilterValues;
  version: number;
  onError: (error: unknown) => void;
  /** The regions now drawn, with the figure each one's tooltip and colour show (the list beside the map). */
  onRegions?: (regions: RegionInView[]) => void;
}

/** A region drawn in the view, with its measure in words. */
export interface RegionInView {
  id: string;
  name: string;
  geometryType: string;
  value: string;
}

/** Finer shapes appear as the map zooms in; turfs drawn by hand are shown at every zoom (there are few of them). */
export function geometryTypesForZoom(zoom: number): string[] {
  if (zoom < 6) return ['state', 'drawn'];
  if (zoom < 9) return ['state', 'county', 'drawn'];
  return ['state', 'county', 'postal-code', 'drawn'];
}

const percent = (v: number) => `${Math.round(v * 100)}%`;

/** A region's figure in words: its union share when that is the measure, else its number of sites. */
function describe(p: Record<string, any>, measure: Measure | null): string {
  if (measure === 'union_share')
    return p.union_share === null || p.union_share === undefined
      ? 'no union or non-union sites'
      : `${percent(p.union_share)} union`;
  return `${p.site_count} site${p.site_count === 1 ? '' : 's'}`;
}

export function RegionsLayer({ measure, filters, version, onError, onRegions }: RegionsLayerProps) {
  const map = useMap();
  const dataProvider = useAppDataProvider();
  const layer = useRef<L.GeoJSON | null>(null);
  const latest = useRef({ measure, filters, onError, onRegions });
  latest.current = { measure, filters, onError, onRegions };

  useEffect(() => {
    if (!map.getPane('om-regions')) {
      const pane = map.createPane('om-regions');
      pane.style.zIndex = '350'; // above tiles (200), below markers (600) and the overlay pane (400)
    }
    const renderer = L.canvas({ pane: 'om-regions', padding: 0.2 });
    const geo = L.geoJSON(undefined, {
      pane: 'om-regions',
      style: (feature) => {
        const p = (feature?.properties ?? {}) as Record<string, any>;
        const outline = p.color || '#1f5f8b';
        const filled = Boolean(latest.current.measure);
        return {
          renderer,
          color: filled ? '#455a64' : outline,
          weight: p.geometry_type === 'state' ? 1.6 : 1,
          opacity: 0.85,
          fillColor: filled ? p.fill : outline,
          fillOpacity: filled ? 0.5 : 0.05,
        } as L.PathOptions;
      },
      onEachFeature: (feature, path) => {
        const p = (feature.properties ?? {}) as Record<string, any>;
        const value = describe(p, latest.current.measure);
        // An element, not a string: Leaflet puts a string in as HTML, and region names come from people and files.
        const tooltip = document.createElement('span');
        tooltip.textContent = `${p.name}: ${value}`;
        path.bindTooltip(tooltip, { sticky: true, direction: 'top' });
      },
    }).addTo(map);
    layer.current = geo;
    return () => {
      geo.remove();
      layer.current = null;
      latest.current.onRegions?.([]);
    };
  }, [map]);

  useEffect(() => {
    let controller: AbortController | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const load = async () => {
      controller?.abort();
      const mine = new AbortController();
      controller = mine;
      const b = map.getBounds();
      const zoom = Math.round(map.getZoom());
      try {
        const collection = await dataProvider.mapRegions(
          [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()],
          zoom,
          geometryTypesForZoom(zoom),
          latest.current.measure,
          latest.current.filters,
          mine.signal,
        );
        if (mine.signal.aborted || !layer.current) return;
        layer.current.clearLayers();
        layer.current.addData(collection);
        latest.current.onRegions?.(
          collection.features.map((feature, i) => {
            const p = (feature.properties ?? {}) as Record<string, any>;
            return {
              id: String(p.id ?? i),
              name: String(p.name ?? ''),
              geometryType: String(p.geometry_type ?? ''),
              value: describe(p, latest.current.measure),
            };
          }),
        );
      } catch (error) {
        if (!mine.signal.aborted && (error as { kind?: string })?.kind !== 'cancelled') latest.current.onError(error);
      }
    };
    const schedule = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void load(), 200);
    };
    map.on('moveend', schedule);
    schedule();
    return () => {
      map.off('moveend', schedule);
      controller?.abort();
      if (timer) clearTimeout(timer);
    };
  }, [dataProvider, map, measure, JSON.stringify(filters), version]);

  return null;
}
