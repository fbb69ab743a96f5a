/**
 * A list laid out as a map (docs/views.md "Map"): the records the list finds (its own filters and saved view) that
 * have a point in the geo-point field, clustered on the server as the map page's record layers are (the map feature's
 * PointsLayer over GET /api/map/points). It first fits every point found; a cluster zooms in, a point opens its record.
 */
import 'leaflet/dist/leaflet.css';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type L from 'leaflet';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useListContext } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { PointsResponse } from '../../../common/map-types';
import type { Query } from '../../http/query';
import { BaseMap } from '../../map/BaseMap';
import { mapStyles } from '../../map/mapStyles';
import { PointsLayer } from '../../map/PointsLayer';
import { useLiveVersion } from '../../map/useLiveVersion';
import { describeMapError } from '../../map/useMapOptions';
import { listQuery } from '../../providers/dataProvider';
import type { FieldDescriptor } from '../../records/fieldTypes';

interface MapLayoutProps {
  resource: string;
  /** The record type (`inspection`): the points endpoint's `type`. */
  recordType: string;
  field: FieldDescriptor;
  viewId: number | null;
  plural: string;
}

export function MapLayout({ resource, recordType, field, viewId, plural }: MapLayoutProps) {
  const { filterValues } = useListContext();
  const navigate = useNavigate();
  const [map, setMap] = useState<L.Map | null>(null);
  // Drawn anew when records of the type change anywhere (the realtime bus), as the map page's layers are.
  const version = useLiveVersion(useMemo(() => [recordType], [recordType]));
  const [error, setError] = useState<string | null>(null);
  const [meta, setMeta] = useState<PointsResponse['meta'] | null>(null);
  const fitted = useRef(false);
  // The list's query as its grid asks for it; kept by value so the points are asked for again only when it changes.
  const queryText = JSON.stringify(
    listQuery({ filter: filterValues, meta: viewId ? { query: { view: viewId } } : undefined }),
  );
  const query = useMemo(() => JSON.parse(queryText) as Query, [queryText]);
  const layer = useMemo(
    () => ({ type: recordType, resource, name: plural, field: field.slug }),
    [recordType, resource, plural, field.slug],
  );
  const onOpen = useCallback((to: string, id: number) => navigate(`/${to}/${id}/show`), [navigate]);
  const onError = useCallback((e: unknown) => setError(describeMapError(e)), []);
  const onLoaded = useCallback(
    (loaded: PointsResponse['meta']) => {
      setError(null);
      setMeta(loaded);
      if (fitted.current || !map || !loaded.bounds) return;
      fitted.current = true;
      const [west, south, east, north] = loaded.bounds;
      map.fitBounds(
        [
          [south, west],
          [north, east],
        ],
        { padding: [40, 40], maxZoom: 12 },
      );
    },
    [map],
  );

  return (
    <Box data-testid="map-layout" sx={{ px: 1, pb: 1 }}>
      {mapStyles}
      <Typography variant="body2" color="text.secondary" sx={{ py: 0.5 }} aria-live="polite">
        {meta
          ? `${plural} with a ${field.label}: ${meta.total.toLocaleString('en-US')}${meta.capped ? ' (the first ones: narrow the list to see the rest)' : ''}`
          : `${plural} by ${field.label}`}
      </Typography>
      {error && (
        <Alert severity="error" sx={{ mb: 1 }}>
          {error}
        </Alert>
      )}
      <Box
        className="om-map"
        role="region"
        aria-label={`Map of ${plural} by ${field.label}`}
        sx={{ height: { xs: 'calc(100dvh - 240px)', sm: 'calc(100dvh - 260px)' }, minHeight: 320 }}
      >
        <BaseMap onMap={setMap} center={[20, 0]} zoom={2}>
          {map && (
            <PointsLayer
              key={version}
              layer={layer}
              listQuery={query}
              onOpen={onOpen}
              onError={onError}
              onLoaded={onLoaded}
            />
          )}
        </BaseMap>
      </Box>
    </Box>
  );
}
