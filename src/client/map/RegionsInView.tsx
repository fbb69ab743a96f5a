/**
 * The regions drawn in the view as a list, each with the figure its colour and tooltip show: what the
 * choropleth tells by colour, readable by a screen reader and by keyboard (a native disclosure, closed at first).
 */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { RegionInView } from './RegionsLayer';

const KIND: Record<string, string> = {
  state: 'State',
  county: 'County',
  'postal-code': 'Postal code',
  drawn: 'Drawn turf',
};

export function RegionsInView({ regions, title }: { regions: RegionInView[]; title: string }) {
  if (regions.length === 0) return null;
  const sorted = [...regions].sort(
    (a, b) => a.geometryType.localeCompare(b.geometryType) || a.name.localeCompare(b.name),
  );
  return (
    <Box
      component="details"
      sx={{ mt: 0.5, '& summary': { cursor: 'pointer', fontSize: '0.75rem', fontWeight: 600 } }}
      data-testid="regions-in-view"
    >
      <summary>
        {title}: {regions.length.toLocaleString('en-US')} region{regions.length === 1 ? '' : 's'} in view
      </summary>
      <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2, maxHeight: 240, overflowY: 'auto', maxWidth: 280 }}>
        {sorted.map((region) => (
          <Typography key={region.id} component="li" variant="caption" sx={{ display: 'list-item' }}>
            {region.name} ({KIND[region.geometryType] ?? region.geometryType}): {region.value}
          </Typography>
        ))}
      </Box>
    </Box>
  );
}
