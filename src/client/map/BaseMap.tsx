/**
 * The map every map screen draws on (the map page, a list laid out as a map): the configured tiles (none offline or
 * in tests: the layers still make a usable map), world wrapping and the zoom buttons at the bottom right.
 */
import type L from 'leaflet';
import type { ReactNode } from 'react';
import { MapContainer, TileLayer, ZoomControl } from 'react-leaflet';
import { useConfig } from '../app/hooks';

interface BaseMapProps {
  center: L.LatLngExpression;
  zoom: number;
  onMap: (map: L.Map | null) => void;
  children: ReactNode;
}

export function BaseMap({ center, zoom, onMap, children }: BaseMapProps) {
  const { tiles } = useConfig();
  return (
    <MapContainer
      ref={onMap}
      center={center}
      zoom={zoom}
      minZoom={2}
      maxZoom={19}
      zoomControl={false}
      worldCopyJump
      style={{ height: '100%', width: '100%' }}
    >
      {tiles?.url ? (
        <TileLayer url={tiles.url} attribution={tiles.attribution} maxZoom={19} crossOrigin="anonymous" />
      ) : null}
      <ZoomControl position="bottomright" />
      {children}
    </MapContainer>
  );
}
