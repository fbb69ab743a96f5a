/** Over the map's top edge: the search box, and the buttons that open the filters (with the number in use) and the layers menu. */

import FilterListIcon from '@mui/icons-material/FilterList';
import LayersIcon from '@mui/icons-material/Layers';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import type { MapSearchHit as SearchHit } from '../../common/map-types';
import { SearchBox } from './SearchBox';

export function MapToolbar({
  filterCount,
  onPick,
  onOpenFilters,
  onOpenLayers,
}: {
  filterCount: number;
  onPick: (hit: SearchHit) => void;
  onOpenFilters: () => void;
  onOpenLayers: (anchor: HTMLElement) => void;
}) {
  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{
        alignItems: 'center',
        position: 'absolute',
        zIndex: 1000,
        top: 12,
        left: 12,
        right: 12,
        pointerEvents: 'none',
      }}
    >
      <Box sx={{ flex: 1, maxWidth: 420, pointerEvents: 'auto' }}>
        <SearchBox onPick={onPick} />
      </Box>
      <Box sx={{ flex: { xs: 0, sm: 1 } }} />
      <Paper elevation={2} sx={{ pointerEvents: 'auto', display: 'flex' }}>
        <Tooltip title="Filters">
          <IconButton
            onClick={onOpenFilters}
            aria-label={`Filters${filterCount ? ` (${filterCount} in use)` : ''}`}
            data-testid="open-map-filters"
          >
            <Badge color="secondary" badgeContent={filterCount} invisible={!filterCount}>
              <FilterListIcon />
            </Badge>
          </IconButton>
        </Tooltip>
        <Divider orientation="vertical" flexItem />
        <Tooltip title="Layers and region colours">
          <IconButton
            onClick={(e) => onOpenLayers(e.currentTarget)}
            aria-label="Layers and region colours"
            data-testid="open-map-layers"
          >
            <LayersIcon />
          </IconButton>
        </Tooltip>
      </Paper>
    </Stack>
  );
}
