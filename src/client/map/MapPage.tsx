/**
 * The map (/map): Leaflet through react-leaflet, the whole height of the layout. Sites as markers coloured by
 * type and ringed by status, clustered on the server; contractors as a second layer; region outlines or
 * measure colours; filters, search, marker cards, live updates. Tiles come from the settings over a plain
 * background, so with no tiles (offline, tests) the regions and markers still make a usable map.
 */
import 'leaflet/dist/leaflet.css';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import L from 'leaflet';
import { MapContainer, TileLayer, ZoomControl } from 'react-leaflet';
import { useNavigate } from 'react-router-dom';
import { Title } from 'react-admin';
import Alert from '@mui/material/Alert';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import GlobalStyles from '@mui/material/GlobalStyles';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Popover from '@mui/material/Popover';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import FilterListIcon from '@mui/icons-material/FilterList';
import LayersIcon from '@mui/icons-material/Layers';
import { useConfig, useSession } from '../app/hooks';
import { can } from '../../common/permissions';
import { SidePanel } from '../layout/SidePanel';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { TYPE_LABELS } from '../i18n/labels';
import { fetchFilterOptions, type FilterOptions, type Layer, type MapFilterValues, type MarkersResponse, type Measure, type SearchHit } from './api';
import { MEASURE_LEGENDS, NO_DATA_COLOR } from './colors';
import { activeFilterCount, FilterDrawer } from './FilterDrawer';
import { MarkerCard } from './MarkerCard';
import { MarkersLayer } from './MarkersLayer';
import { RecordPanel } from './RecordPanel';
import { RegionUpload } from './RegionUpload';
import { RegionsLayer } from './RegionsLayer';
import { SearchBox } from './SearchBox';
import { useResourceVersion } from './useResourceVersion';

const DEFAULT_VIEW = { center: [39.5, -98.35] as [number, number], zoom: 4 };
/** Shown where no tile has loaded (no network, tiles switched off): land-neutral, with enough contrast for outlines. */
const BACKGROUND = '#e3e9ed';

function viewFromUrl(): { center: [number, number]; zoom: number } | null {
  const params = new URLSearchParams(window.location.search);
  const lat = Number(params.get('lat'));
  const lng = Number(params.get('lng'));
  const zoom = Number(params.get('z'));
  if (!params.has('lat') || !Number.isFinite(lat) || !Number.isFinite(lng) || !Number.isFinite(zoom)) return null;
  return { center: [lat, lng], zoom };
}

function describeError(error: unknown): string {
  const e = error as { status?: number; message?: string };
  if (e?.status === 404) return 'The map is switched off for this organisation.';
  if (e?.status === 403) return 'You do not have permission to see the map.';
  return e?.message || 'The map could not load its data.';
}

const mapStyles = (
  <GlobalStyles
    styles={{
      '.om-map .leaflet-container': { background: BACKGROUND, fontFamily: 'inherit' },
      '.leaflet-marker-icon.om-cluster': {
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        borderRadius: '50%',
        background: 'rgba(31, 95, 139, 0.88)',
        color: '#fff',
        fontWeight: 700,
        fontSize: 12,
        boxShadow: '0 0 0 5px rgba(31, 95, 139, 0.25)',
        cursor: 'pointer',
      },
      '.leaflet-marker-icon.om-cluster-contractors': { background: 'rgba(109, 76, 65, 0.9)', boxShadow: '0 0 0 5px rgba(109, 76, 65, 0.25)', borderRadius: 6 },
      '.om-pin span': { display: 'block', width: '100%', height: '100%', borderRadius: '50%', border: '3px solid #fff', boxSizing: 'border-box', boxShadow: '0 1px 3px rgba(0,0,0,0.45)' },
      '.om-contractor span': { borderRadius: 3, border: '2px solid #fff', transform: 'rotate(45deg)' },
      '.om-pin, .om-cluster': { outline: 'none' },
      '.om-pin:focus-visible, .om-cluster:focus-visible': { outline: '3px solid #e0752d', outlineOffset: 2 },
    }}
  />
);

export default function MapPage() {
  useDocumentTitle('Map');
  const config = useConfig();
  const navigate = useNavigate();
  const { user } = useSession();
  const canUploadShapes = can(user, 'region:create');
  const [map, setMap] = useState<L.Map | null>(null);
  const urlView = useRef(viewFromUrl());
  const fitted = useRef(Boolean(urlView.current));
  const [options, setOptions] = useState<FilterOptions | null>(null);
  const [filters, setFilters] = useState<MapFilterValues>({});
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [layersAnchor, setLayersAnchor] = useState<HTMLElement | null>(null);
  const [showContractors, setShowContractors] = useState(false);
  const [showRegions, setShowRegions] = useState(true);
  const [measure, setMeasure] = useState<Measure | null>(null);
  const [selected, setSelected] = useState<{ kind: 'site' | 'contractor'; id: number } | null>(null);
  const [panel, setPanel] = useState<{ resource: string; id: number; title: string } | null>(null);
  const [summary, setSummary] = useState<MarkersResponse['meta'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  const siteVersion = useResourceVersion('sites');
  const contractorVersion = useResourceVersion('contractors');
  const regionVersion = useResourceVersion('regions');
  const [liveVersion, setLiveVersion] = useState(0);
  // Several saves in a row (an import) become one refresh.
  useEffect(() => {
    const timer = setTimeout(() => setLiveVersion(siteVersion * 1_000_003 + contractorVersion * 1_009 + regionVersion), 400);
    return () => clearTimeout(timer);
  }, [siteVersion, contractorVersion, regionVersion]);

  useEffect(() => {
    fetchFilterOptions()
      .then(setOptions)
      .catch((e) => setError(describeError(e)));
  }, []);

  const typeLabels = useMemo(() => {
    const labels: Record<string, string> = { ...TYPE_LABELS };
    for (const t of options?.site_types ?? []) labels[String(t.id)] = t.name;
    return labels;
  }, [options]);
  const typeColors = useMemo(() => Object.fromEntries((options?.site_types ?? []).map((t) => [String(t.id), t.color])), [options]);
  const statusColors = useMemo(() => Object.fromEntries((options?.statuses ?? []).map((s) => [Number(s.id), s.color])), [options]);
  const layers: Layer[] = useMemo(() => (showContractors && options?.layers.contractors ? ['sites', 'contractors'] : ['sites']), [showContractors, options]);

  // Keep the view in the address so a reload (or a shared link) opens the same place.
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
    map.on('moveend', remember);
    return () => {
      map.off('moveend', remember);
    };
  }, [map]);

  const onLoaded = useCallback(
    (response: MarkersResponse) => {
      setError(null);
      setSummary(response.meta);
      if (!fitted.current && map && response.meta.bounds) {
        fitted.current = true;
        const [w, s, e, n] = response.meta.bounds;
        map.fitBounds(
          [
            [s, w],
            [n, e],
          ],
          { padding: [40, 40], maxZoom: 12 },
        );
      }
    },
    [map],
  );

  const onPick = (hit: SearchHit) => {
    if (!map) return;
    if (hit.bbox && hit.kind !== 'site') {
      const [w, s, e, n] = hit.bbox;
      map.flyToBounds(
        [
          [s, w],
          [n, e],
        ],
        { padding: [30, 30], maxZoom: 15, duration: 0.8 },
      );
    } else {
      map.flyTo([hit.lat, hit.lng], 17, { duration: 0.8 });
    }
    if (hit.kind === 'site' && hit.id) setSelected({ kind: 'site', id: hit.id });
  };

  const tiles = config.tiles;
  const filterCount = activeFilterCount(filters);
  const inView = summary?.in_view.sites ?? 0;
  const total = summary?.total.sites ?? 0;
  const legend = measure ? MEASURE_LEGENDS[measure] : null;

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
      <MapContainer
        ref={setMap}
        center={urlView.current?.center ?? DEFAULT_VIEW.center}
        zoom={urlView.current?.zoom ?? DEFAULT_VIEW.zoom}
        minZoom={2}
        maxZoom={19}
        zoomControl={false}
        worldCopyJump
        style={{ height: '100%', width: '100%' }}
      >
        {tiles?.url ? <TileLayer url={tiles.url} attribution={tiles.attribution} maxZoom={19} crossOrigin="anonymous" /> : null}
        <ZoomControl position="bottomright" />
        {showRegions && <RegionsLayer measure={measure} filters={filters} version={liveVersion} onError={() => undefined} />}
        <MarkersLayer
          layers={layers}
          filters={filters}
          version={liveVersion}
          typeColors={typeColors}
          statusColors={statusColors}
          typeLabels={typeLabels}
          onSelect={setSelected}
          onLoaded={onLoaded}
          onLoading={setLoading}
          onError={(e) => setError(describeError(e))}
        />
      </MapContainer>

      {loading && <LinearProgress sx={{ position: 'absolute', top: 0, left: 0, right: 0, zIndex: 1001, height: 3 }} aria-label="Loading markers" />}

      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', position: 'absolute', zIndex: 1000, top: 12, left: 12, right: 12, pointerEvents: 'none' }}>
        <Box sx={{ flex: 1, maxWidth: 420, pointerEvents: 'auto' }}>
          <SearchBox onPick={onPick} />
        </Box>
        <Box sx={{ flex: { xs: 0, sm: 1 } }} />
        <Paper elevation={2} sx={{ pointerEvents: 'auto', display: 'flex' }}>
          <Tooltip title="Filters">
            <IconButton onClick={() => setFiltersOpen(true)} aria-label={`Filters${filterCount ? ` (${filterCount} in use)` : ''}`} data-testid="open-map-filters">
              <Badge color="secondary" badgeContent={filterCount} invisible={!filterCount}>
                <FilterListIcon />
              </Badge>
            </IconButton>
          </Tooltip>
          <Divider orientation="vertical" flexItem />
          <Tooltip title="Layers and region colours">
            <IconButton onClick={(e) => setLayersAnchor(e.currentTarget)} aria-label="Layers and region colours" data-testid="open-map-layers">
              <LayersIcon />
            </IconButton>
          </Tooltip>
        </Paper>
      </Stack>

      <Popover
        open={Boolean(layersAnchor)}
        anchorEl={layersAnchor}
        onClose={() => setLayersAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Box sx={{ p: 2, width: 260 }}>
          <Typography variant="overline" color="text.secondary">
            Layers
          </Typography>
          <Stack>
            <FormControlLabel control={<Checkbox checked disabled />} label="Job sites" />
            <FormControlLabel
              control={<Checkbox checked={showContractors} onChange={(e) => setShowContractors(e.target.checked)} name="contractors-layer" />}
              label="Contractors"
              disabled={!options?.layers.contractors}
            />
            <FormControlLabel control={<Checkbox checked={showRegions} onChange={(e) => setShowRegions(e.target.checked)} name="regions-layer" />} label="Regions" />
          </Stack>
          <Typography variant="overline" color="text.secondary" component="div" sx={{ mt: 1 }}>
            Colour regions by
          </Typography>
          <RadioGroup value={measure ?? 'none'} onChange={(e) => setMeasure(e.target.value === 'none' ? null : (e.target.value as Measure))}>
            <FormControlLabel value="none" control={<Radio size="small" />} label="Nothing (outlines)" />
            <FormControlLabel value="sites" control={<Radio size="small" />} label="Number of sites" disabled={!showRegions} />
            <FormControlLabel value="union_share" control={<Radio size="small" />} label="Union share" disabled={!showRegions} />
          </RadioGroup>
          {canUploadShapes && (
            <>
              <Divider sx={{ my: 1 }} />
              <Typography variant="overline" color="text.secondary">
                Region shapes
              </Typography>
              <RegionUpload />
            </>
          )}
        </Box>
      </Popover>

      <Paper
        elevation={2}
        sx={{ position: 'absolute', zIndex: 999, right: 12, top: 60, px: 1.25, py: 0.75, display: selected ? { xs: 'none', sm: 'block' } : 'block' }}
        aria-live="polite"
        data-testid="map-summary"
      >
        <Typography variant="caption" component="div">
          {summary ? `${inView.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} sites in view` : 'Loading sites…'}
          {summary && layers.includes('contractors') ? ` · ${(summary.in_view.contractors ?? 0).toLocaleString('en-US')} contractors` : ''}
        </Typography>
        {legend && showRegions && (
          <Box sx={{ mt: 0.75 }} data-testid="map-legend">
            <Typography variant="caption" color="text.secondary">
              {legend.title}
            </Typography>
            <Stack direction="row" sx={{ mt: 0.25 }}>
              {legend.stops.map((c) => (
                <Box key={c} sx={{ width: 22, height: 10, bgcolor: c }} />
              ))}
              <Box sx={{ width: 10 }} />
              <Box sx={{ width: 10, height: 10, bgcolor: NO_DATA_COLOR }} title="No data" />
            </Stack>
            <Stack direction="row" sx={{ justifyContent: 'space-between', width: 110 }}>
              <Typography variant="caption">{legend.labels[0]}</Typography>
              <Typography variant="caption">{legend.labels[1]}</Typography>
            </Stack>
          </Box>
        )}
      </Paper>

      {error && (
        <Alert severity="warning" sx={{ position: 'absolute', zIndex: 1001, top: 64, left: 12, right: { xs: 12, sm: 'auto' }, maxWidth: 480 }} onClose={() => setError(null)}>
          {error}
        </Alert>
      )}

      {selected && (
        <MarkerCard
          marker={selected}
          version={liveVersion}
          typeLabels={typeLabels}
          typeColors={typeColors}
          onClose={() => setSelected(null)}
          onOpen={(resource, id) => navigate(`/${resource}/${id}/show`)}
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
        {panel && <RecordPanel resource={panel.resource} id={panel.id} labels={panel.resource === 'sites' ? typeLabels : {}} onOpen={() => navigate(`/${panel.resource}/${panel.id}/show`)} />}
      </SidePanel>

      {!error && summary && total === 0 && (
        <Paper elevation={2} sx={{ position: 'absolute', zIndex: 999, left: '50%', top: '50%', transform: 'translate(-50%, -50%)', p: 2, maxWidth: 320, textAlign: 'center' }}>
          <Typography variant="body2">{filterCount ? 'No site matches these filters.' : 'No job site has coordinates yet.'}</Typography>
          {filterCount > 0 && (
            <Button size="small" sx={{ mt: 1 }} onClick={() => setFilters({})}>
              Clear the filters
            </Button>
          )}
        </Paper>
      )}
    </Box>
  );
}
