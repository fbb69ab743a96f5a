/**
 * What the map shows in words: how many sites (and contractors) are in view of how many, the legend of the region
 * colours, and a notice when no site has coordinates or none matches the filters.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { MapLayer as Layer, MarkersResponse, MapMeasure as Measure } from '../../common/map-types';
import { MEASURE_LEGENDS, NO_DATA_COLOR } from './colors';
import { RegionsInView } from './RegionsInView';
import type { RegionInView } from './RegionsLayer';

export function MapSummary({
  summary,
  layers,
  legendOf,
  hiddenOnPhone,
  regions,
}: {
  summary: MarkersResponse['meta'] | null;
  /** The regions drawn, listed with their figures. */
  regions: RegionInView[];
  layers: Layer[];
  /** The measure whose legend shows (null: none). */
  legendOf: Measure | null;
  /** A card is open: on a phone it needs the room. */
  hiddenOnPhone: boolean;
}) {
  const inView = summary?.in_view.sites ?? 0;
  const total = summary?.total.sites ?? 0;
  const legend = legendOf ? MEASURE_LEGENDS[legendOf] : null;
  return (
    <Paper
      elevation={2}
      sx={{
        position: 'absolute',
        zIndex: 999,
        right: 12,
        top: 60,
        px: 1.25,
        py: 0.75,
        display: hiddenOnPhone ? { xs: 'none', sm: 'block' } : 'block',
      }}
      data-testid="map-summary"
    >
      <Typography variant="caption" component="div" aria-live="polite">
        {summary
          ? `${inView.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} sites in view`
          : 'Loading sites…'}
        {summary && layers.includes('contractors')
          ? ` · ${(summary.in_view.contractors ?? 0).toLocaleString('en-US')} contractors`
          : ''}
      </Typography>
      {legend && (
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
      <RegionsInView regions={regions} title={legend?.title ?? 'Sites per region'} />
    </Paper>
  );
}

/** Over the middle of an empty map: why it is empty, and a way out when filters did it. */
export function EmptyMapNotice({ filtered, onClearFilters }: { filtered: boolean; onClearFilters: () => void }) {
  return (
    <Paper
      elevation={2}
      sx={{
        position: 'absolute',
        zIndex: 999,
        left: '50%',
        top: '50%',
        transform: 'translate(-50%, -50%)',
        p: 2,
        maxWidth: 320,
        textAlign: 'center',
      }}
    >
      <Typography variant="body2">
        {filtered ? 'No site matches these filters.' : 'No job site has coordinates yet.'}
      </Typography>
      {filtered && (
        <Button size="small" sx={{ mt: 1 }} onClick={onClearFilters}>
          Clear the filters
        </Button>
      )}
    </Paper>
  );
}
