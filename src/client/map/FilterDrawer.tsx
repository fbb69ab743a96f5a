/**
 * The map's filters: site type and category, status, phase, building type, trade, contractor type, region,
 * date ranges, and the dropdown fields of the site record type. Edited here, applied with one button; the
 * values go to the server as the list filter contract (`type`, `site_status_id`, `bid_date_gte`, ...).
 */
import { useEffect, useMemo, useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { fetchRegionOptions, type FilterOptions, type MapFilterValues, type Option } from './api';

export interface FilterDrawerProps {
  open: boolean;
  options: FilterOptions | null;
  value: MapFilterValues;
  onClose: () => void;
  onApply: (value: MapFilterValues) => void;
}

const CATEGORY_LABELS: Record<string, string> = {
  development: 'Development',
  lcmt: 'LCMT',
  'non-union': 'Non-Union',
  pla: 'PLA',
  'public-works': 'Public Works',
  union: 'Union',
};

function MultiSelect({ label, options, value, onChange, name }: { label: string; name: string; options: Option[]; value: Array<string | number>; onChange: (v: Array<string | number>) => void }) {
  const selected = options.filter((o) => value.map(String).includes(String(o.id)));
  return (
    <Autocomplete
      multiple
      size="small"
      options={options}
      value={selected}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => String(a.id) === String(b.id)}
      onChange={(_e, next) => onChange(next.map((o) => o.id))}
      renderInput={(params) => <TextField {...params} label={label} name={name} />}
      filterSelectedOptions
    />
  );
}

/** Number of filters in use, for the badge on the filter button. */
export function activeFilterCount(value: MapFilterValues) {
  return Object.values(value).filter((v) => (Array.isArray(v) ? v.length > 0 : v !== '' && v !== undefined && v !== null)).length;
}

export function FilterDrawer({ open, options, value, onClose, onApply }: FilterDrawerProps) {
  const [draft, setDraft] = useState<MapFilterValues>(value);
  const [regionOptions, setRegionOptions] = useState<Option[]>([]);
  const [regionQuery, setRegionQuery] = useState('');
  useEffect(() => {
    if (open) setDraft(value);
  }, [open, value]);

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetchRegionOptions(regionQuery, controller.signal)
        .then((rows) => setRegionOptions(rows.map((r) => ({ id: r.id, name: r.name }))))
        .catch(() => undefined);
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [open, regionQuery]);

  const list = (key: string) => (Array.isArray(draft[key]) ? (draft[key] as Array<string | number>) : []);
  const text = (key: string) => (typeof draft[key] === 'string' ? (draft[key] as string) : '');
  const set = (key: string, next: Array<string | number> | string) => setDraft((d) => ({ ...d, [key]: next as string | string[] }));
  const categories = useMemo(() => (options?.categories ?? []).map((c) => ({ id: c, name: CATEGORY_LABELS[c] ?? c })), [options]);
  const selectedRegions = useMemo(() => {
    const ids = list('region_id').map(String);
    const known = new Map(regionOptions.map((r) => [String(r.id), r]));
    return ids.map((id) => known.get(id) ?? { id, name: `Region ${id}` });
  }, [draft.region_id, regionOptions]);

  return (
    <Drawer anchor="right" open={open} onClose={onClose} slotProps={{ paper: { sx: { width: { xs: '100%', sm: 380 } }, 'data-testid': 'map-filters' } as object }}>
      <Stack direction="row" sx={{ alignItems: 'center', px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider' }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
          Filters
        </Typography>
        <IconButton onClick={onClose} aria-label="Close the filters" edge="end">
          <CloseIcon />
        </IconButton>
      </Stack>
      {!options ? (
        <Typography sx={{ p: 2 }} color="text.secondary">
          Loading the filters…
        </Typography>
      ) : (
        <Stack spacing={2} sx={{ p: 2, overflowY: 'auto', flex: 1 }}>
          <MultiSelect name="type" label="Site type" options={options.site_types} value={list('type')} onChange={(v) => set('type', v as string[])} />
          {categories.length > 1 && <MultiSelect name="category" label="Category" options={categories} value={list('category')} onChange={(v) => set('category', v as string[])} />}
          <MultiSelect name="site_status_id" label="Status" options={options.statuses} value={list('site_status_id')} onChange={(v) => set('site_status_id', v as any)} />
          <MultiSelect name="site_phase_id" label="Phase" options={options.phases} value={list('site_phase_id')} onChange={(v) => set('site_phase_id', v as any)} />
          <MultiSelect name="building_type_id" label="Building type" options={options.building_types} value={list('building_type_id')} onChange={(v) => set('building_type_id', v as any)} />
          <MultiSelect name="trade_id" label="Trade" options={options.trades} value={list('trade_id')} onChange={(v) => set('trade_id', v as any)} />
          {options.contractor_types.length > 0 && (
            <MultiSelect name="contractor_type" label="Contractor type" options={options.contractor_types} value={list('contractor_type')} onChange={(v) => set('contractor_type', v as string[])} />
          )}
          <Autocomplete
            multiple
            size="small"
            options={regionOptions}
            value={selectedRegions}
            getOptionLabel={(o) => o.name}
            isOptionEqualToValue={(a, b) => String(a.id) === String(b.id)}
            onInputChange={(_e, q) => setRegionQuery(q)}
            onChange={(_e, next) => set('region_id', next.map((o) => o.id) as any)}
            filterOptions={(x) => x}
            renderInput={(params) => <TextField {...params} label="Region" name="region_id" />}
          />
          {options.dropdowns.map((d) => (
            <MultiSelect key={d.field} name={d.field} label={d.label.charAt(0).toUpperCase() + d.label.slice(1)} options={d.options} value={list(d.field)} onChange={(v) => set(d.field, v as string[])} />
          ))}
          {options.dates.map((d) => (
            <Box key={d.field}>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 0.75, textTransform: 'capitalize' }}>
                {d.label}
              </Typography>
              <Stack direction="row" spacing={1}>
                <TextField size="small" type="date" label="From" name={`${d.field}_gte`} value={text(`${d.field}_gte`)} onChange={(e) => set(`${d.field}_gte`, e.target.value)} slotProps={{ inputLabel: { shrink: true } }} fullWidth />
                <TextField size="small" type="date" label="To" name={`${d.field}_lte`} value={text(`${d.field}_lte`)} onChange={(e) => set(`${d.field}_lte`, e.target.value)} slotProps={{ inputLabel: { shrink: true } }} fullWidth />
              </Stack>
            </Box>
          ))}
        </Stack>
      )}
      <Stack direction="row" spacing={1} sx={{ p: 2, borderTop: 1, borderColor: 'divider' }}>
        <Button
          onClick={() => {
            setDraft({});
            onApply({});
          }}
        >
          Clear all
        </Button>
        <Box sx={{ flex: 1 }} />
        <Button variant="contained" onClick={() => onApply(draft)} data-testid="apply-filters">
          Apply
        </Button>
      </Stack>
    </Drawer>
  );
}
