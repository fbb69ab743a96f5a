/**
 * The map (/map): Leaflet through react-leaflet, the whole height of the layout. Sites as markers coloured by
 * type and ringed by status, clustered on the server; contractors as a second layer; region outlines or
 * measure colours; filters, search, marker cards, live updates. Tiles come from the settings over a plain
 * background, so with no tiles (offline, tests) the regions and markers still make a usable map.
 *
 * This component holds the screen's state and lays the pieces out: where the map looks (useMapView), the filter
 * options (useMapOptions), live updates (useLiveVersion), the layers (MarkersLayer, RegionsLayer), the toolbar,
 * menus and panels.
 */
import 'leaflet/dist/leaflet.css';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import type L from 'leaflet';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Title } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type {
  MapLayer as Layer,
  MapFilterValues,
  MarkersResponse,
  PointLayer,
  MapSearchHit as SearchHit,
} from '../../common/map-types';
import { SidePanel } from '../layout/SidePanel';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { useAppDataProvider } from '../records/hooks';
import { BaseMap } from './BaseMap';
import { activeFilterCount, FilterDrawer } from './FilterDrawer';
import { type LayerChoices, LayersMenu } from './LayersMenu';
import { EmptyMapNotice, MapSummary } from './MapSummary';
import { MapToolbar } from './MapToolbar';
import { MarkerCard } from './MarkerCard';
import { MarkersLayer } from './MarkersLayer';
import { mapStyles } from './mapStyles';
import { PointsLayer } from './PointsLayer';
import { RecordPanel } from './RecordPanel';
import { type RegionInView, RegionsLayer } from './RegionsLayer';
import { TurfDraw } from './TurfDraw';
import { useLiveVersion } from './useLiveVersion';
import { describeMapError, useMapOptions } from './useMapOptions';
import { useMapView } from './useMapView';

/** Record types whose changes redraw the map. */
const LIVE_TYPES = ['site', 'contractor', 'region'] as const;

type Marker = { kind: 'site' | 'contractor'; id: number };

export default function MapPage() {
  useDocumentTitle('Map');
  const navigate = useNavigate();
  const [map, setMap] = useState<L.Map | null>(null);
  const view = useMapView(map);
  const [error, setError] = useState<string | null>(null);
  const { options, typeLabels, typeColors, statusColors, statusLabels, contractorTypeLabels } = useMapOptions(setError);
  const liveVersion = useLiveVersion(LIVE_TYPES);
  // A turf saved here is drawn at once, whether or not its realtime event has come back yet.
  const [turfsSaved, setTurfsSaved] = useState(0);
  const version = liveVersion + turfsSaved;

  const [filters, setFilters] = useState<MapFilterValues>({});
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [layersAnchor, setLayersAnchor] = useState<HTMLElement | null>(null);
  const [choices, setChoices] = useState<LayerChoices>({
    contractors: false,
    regions: true,
    measure: null,
    points: [],
  });
  const [pointLayers, setPointLayers] = useState<PointLayer[]>([]);
  const dataProvider = useAppDataProvider();
  useEffect(() => {
    dataProvider.mapPointLayers().then(setPointLayers, () => setPointLayers([]));
  }, [dataProvider]);
  const [selected, setSelected] = useState<Marker | null>(null);
  const [panel, setPanel] = useState<{ resource: string; id: number; title: string } | null>(null);
  const [summary, setSummary] = useState<MarkersResponse['meta'] | null>(null);
  const [loading, setLoading] = useState(false);
  const [regions, setRegions] = useState<RegionInView[]>([]);

  const layers: Layer[] = useMemo(
    () => (choices.contractors && options?.layers.contractors ? ['sites', 'contractors'] : ['sites']),
    [choices.contractors, options],
  );
  useEffect(() => {
    if (!map) return;
    // Leaflet finishes a zoom animation on a timer that outlives `map.remove()` and then reads the removed panes
    // (`_leaflet_pos` of undefined): leaving the map mid-zoom (a phone's fit to the markers) logged that error.
    const forgetZoom = () => {
      (map as L.Map & { _animatingZoom?: boolean })._animatingZoom = false;
    };
    map.on('unload', forgetZoom);
    return () => {
      map.off('unload', forgetZoom);
      map.stop();
      forgetZoom();
    };
  }, [map]);
  const { fitOnce } = view;
  const onLoaded = useCallback(
    (response: MarkersResponse) => {
      setError(null);
      setSummary(response.meta);
      fitOnce(response.meta.bounds);
    },
    [fitOnce],
  );
  const onPick = (hit: SearchHit) => {
    view.flyTo(hit);
    if (hit.kind === 'site' && hit.id) setSelected({ kind: 'site', id: hit.id });
  };
  const filterCount = activeFilterCount(filters);
  const openPage = useCallback((resource: string, id: number) => navigate(`/${resource}/${id}/show`), [navigate]);
  const onPointsError = useCallback((e: unknown) => setError(describeMapError(e)), []);

  return (
    <Box
      className="om-map"
      data-testid="map-page"
      sx={{
        position: 'relative',
        m: { xs: -1.5, sm: -3 },
        height: { xs: 'calc(100dvh - 56px)', sm: 'calc(100dvh - 64px)' },
        minHeight: 320,
        overflow: 'hidden',
      }}
    >
      <Title title="Map" />
      {mapStyles}
      <BaseMap onMap={setMap} center={view.center} zoom={view.zoom}>
        {choices.regions && (
          <RegionsLayer
            measure={choices.measure}
            filters={filters}
            version={version}
            onError={() => undefined}
            onRegions={setRegions}
          />
        )}
        <MarkersLayer
          layers={layers}
          filters={filters}
          version={version}
          typeColors={typeColors}
          statusColors={statusColors}
          typeLabels={typeLabels}
          statusLabels={statusLabels}
          contractorTypeLabels={contractorTypeLabels}
          onSelect={setSelected}
          onLoaded={onLoaded}
          onLoading={setLoading}
          onError={(e) => setError(describeMapError(e))}
        />
        {pointLayers
          .filter((layer) => choices.points.includes(layer.type))
          .map((layer) => (
            <PointsLayer key={`${layer.type}:${version}`} layer={layer} onOpen={openPage} onError={onPointsError} />
          ))}
      </BaseMap>

      {loading && (
        <LinearProgress
          sx={{ position: 'absolute', top: 0, left: 0, right: 0, zIndex: 1001, height: 3 }}
          aria-label="Loading markers"
        />
      )}

      <MapToolbar
        filterCount={filterCount}
        onPick={onPick}
        onOpenFilters={() => setFiltersOpen(true)}
        onOpenLayers={setLayersAnchor}
      />
      <TurfDraw map={map} onSaved={() => setTurfsSaved((n) => n + 1)} />
      <LayersMenu
        anchor={layersAnchor}
        onClose={() => setLayersAnchor(null)}
        value={choices}
        onChange={setChoices}
        contractorsOffered={Boolean(options?.layers.contractors)}
        pointLayers={pointLayers}
      />
      <MapSummary
        summary={summary}
        layers={layers}
        legendOf={choices.regions ? choices.measure : null}
        hiddenOnPhone={Boolean(selected)}
        regions={choices.regions ? regions : []}
      />

      {error && (
        <Alert
          severity="warning"
          sx={{ position: 'absolute', zIndex: 1001, top: 64, left: 12, right: { xs: 12, sm: 'auto' }, maxWidth: 480 }}
          onClose={() => setError(null)}
        >
          {error}
        </Alert>
      )}

      {selected && (
        <MarkerCard
          marker={selected}
          version={version}
          typeColors={typeColors}
          onClose={() => setSelected(null)}
          onOpen={openPage}
          onOpenPanel={(resource, id, title) => setPanel({ resource, id, title })}
        />
      )}

      <FilterDrawer
        open={filtersOpen}
        options={options}
        value={filters}
        onClose={() => setFiltersOpen(false)}
        onApply={(next) => {
          setFilters(next);
          setFiltersOpen(false);
        }}
      />

      <SidePanel open={Boolean(panel)} onClose={() => setPanel(null)} title={panel?.title ?? ''}>
        {panel && (
          <RecordPanel resource={panel.resource} id={panel.id} onOpen={() => openPage(panel.resource, panel.id)} />
        )}
      </SidePanel>

      {!error && summary && (summary.total.sites ?? 0) === 0 && (
        <EmptyMapNotice filtered={filterCount > 0} onClearFilters={() => setFilters({})} />
      )}
    </Box>
  );
}
