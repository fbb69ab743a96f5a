/**
 * A geo point's input: latitude and longitude typed, or a click on a small map (which also shows the point chosen).
 * The map has tiles when the organization has them (`tiles` of the configuration); without, it is a plain grid.
 */
import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import 'leaflet/dist/leaflet.css';
import { useState } from 'react';
import { required, useInput } from 'react-admin';
import { CircleMarker, MapContainer, TileLayer, useMapEvents } from 'react-leaflet';
import { GEO_POINT, type GeoPoint } from '../../../common/field-types/geo-point';
import { useConfig } from '../../app/hooks';
import type { InputComponentProps } from './inputs';

/** What the form holds while the typed numbers are not a point yet: the form refuses to save it. */
const NOT_A_POINT = 'not a point';
const rounded = (n: number) => Math.round(n * 1e6) / 1e6;

function ClickToPlace({ onPlace }: { onPlace(point: GeoPoint): void }) {
  useMapEvents({ click: (event) => onPlace({ lat: rounded(event.latlng.lat), lng: rounded(event.latlng.lng) }) });
  return null;
}

export default function GeoPointInput({ descriptor }: InputComponentProps) {
  const { tiles } = useConfig();
  const { field, fieldState } = useInput({
    source: descriptor.slug,
    validate: [
      ...(descriptor.required ? [required()] : []),
      (value: unknown) =>
        value === NOT_A_POINT
          ? 'Latitude from -90 to 90 and longitude from -180 to 180, or a click on the map.'
          : undefined,
    ],
  });
  const held = GEO_POINT.safeParse(field.value);
  const point = held.success ? held.data : null;
  const [typed, setTyped] = useState(() => ({
    lat: point ? String(point.lat) : '',
    lng: point ? String(point.lng) : '',
  }));
  const place = (next: GeoPoint) => {
    setTyped({ lat: String(next.lat), lng: String(next.lng) });
    field.onChange(next);
  };
  const type = (part: 'lat' | 'lng', text: string) => {
    const next = { ...typed, [part]: text };
    setTyped(next);
    if (!next.lat.trim() && !next.lng.trim()) return field.onChange(null);
    const parsed = GEO_POINT.safeParse({ lat: Number(next.lat), lng: Number(next.lng) });
    field.onChange(parsed.success && next.lat.trim() && next.lng.trim() ? parsed.data : NOT_A_POINT);
  };
  const error = fieldState.error?.message;
  const disabled = descriptor.readOnly;
  return (
    <Box sx={{ mb: 2, maxWidth: 520 }} data-testid={`geo-point-${descriptor.slug}`}>
      <FormLabel required={descriptor.required}>{descriptor.label}</FormLabel>
      <Stack direction="row" spacing={1} sx={{ my: 1 }}>
        {(['lat', 'lng'] as const).map((part) => (
          <TextField
            key={part}
            label={part === 'lat' ? 'Latitude' : 'Longitude'}
            value={typed[part]}
            onChange={(event) => type(part, event.target.value)}
            onBlur={field.onBlur}
            disabled={disabled}
            size="small"
            error={Boolean(error)}
            slotProps={{ htmlInput: { inputMode: 'decimal', name: `${descriptor.slug}.${part}` } }}
          />
        ))}
      </Stack>
      <Box sx={{ height: 200, border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden' }}>
        <MapContainer
          center={point ? [point.lat, point.lng] : [39.5, -98.35]}
          zoom={point ? 13 : 3}
          style={{ height: '100%', width: '100%' }}
          attributionControl={Boolean(tiles?.url)}
        >
          {tiles?.url ? <TileLayer url={tiles.url} attribution={tiles.attribution} maxZoom={19} /> : null}
          {point ? <CircleMarker center={[point.lat, point.lng]} radius={8} /> : null}
          {disabled ? null : <ClickToPlace onPlace={place} />}
        </MapContainer>
      </Box>
      <FormHelperText error={Boolean(error)}>
        {error ?? descriptor.help ?? 'Type the coordinates or click the map.'}
      </FormHelperText>
    </Box>
  );
}
