/**
 * The map's filters: site type and category, status, phase, building type, trade, contractor type, region,
 * date ranges, the dropdown fields of the site record type (by their choices' labels), and its other custom fields
 * as the field-type table describes their filters (yes/no, number ranges, related records). Edited here, applied with one button; the
 * values go to the server as the list filter contract (`type`, `site_status_id`, `bid_date_gte`, ...).
 */

import CloseIcon from '@mui/icons-material/Close';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useState } from 'react';
import type { MapFilterOptions as FilterOptions, MapFilterValues, MapOption as Option } from '../../common/map-types';
import { describeField, type FieldDescriptor, type FilterSpec } from '../records/fieldTypes/describe';
import { useAppDataProvider, useLiveSchema } from '../records/hooks';

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

type SelectProps = {
  label: string;
  name: string;
  value: Array<string | number>;
  onChange: (v: Array<string | number>) => void;
};

/** The Autocomplete of several options that every list filter of the drawer uses. */
function Choices({
  label,
  name,
  options,
  selected,
  onChange,
  ...rest
}: Omit<SelectProps, 'value'> & {
  options: Option[];
  selected: Option[];
  filterSelectedOptions?: boolean;
  filterOptions?: (x: Option[]) => Option[];
  onInputChange?: (event: unknown, q: string) => void;
}) {
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
      {...rest}
    />
  );
}

function MultiSelect({ options, value, ...props }: SelectProps & { options: Option[] }) {
  return (
    <Choices
      {...props}
      options={options}
      selected={options.filter((o) => value.map(String).includes(String(o.id)))}
      filterSelectedOptions
    />
  );
}

/** Number of filters in use, for the badge on the filter button. */
export function activeFilterCount(value: MapFilterValues) {
  return Object.values(value).filter((v) =>
    Array.isArray(v) ? v.length > 0 : v !== '' && v !== undefined && v !== null,
  ).length;
}

/** Several records of an options list, searched as one types (regions, the records a relation points at). */
function SearchedSelect({ list, label, name, open, value, onChange }: SelectProps & { list: string; open: boolean }) {
  const dataProvider = useAppDataProvider();
  const [options, setOptions] = useState<Option[]>([]);
  const [query, setQuery] = useState('');
  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      dataProvider
        .options(list, { q: query }, controller.signal)
        .then((rows) => setOptions(rows.map((r) => ({ id: r.id, name: r.name }))))
        .catch(() => undefined);
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [dataProvider, open, list, query]);
  const selected = useMemo(() => {
    const known = new Map(options.map((o) => [String(o.id), o]));
    return value.map(String).map((id) => known.get(id) ?? { id, name: `${label} ${id}` });
  }, [value, options, label]);
  return (
    <Choices
      label={label}
      name={name}
      onChange={onChange}
      options={options}
      selected={selected}
      onInputChange={(_e, q) => setQuery(q)}
      filterOptions={(x) => x}
    />
  );
}

/** The filters of the sites' custom fields that the drawer's own lists do not cover (dropdowns and dates come from the server). */
const FIELD_FILTER_KINDS = new Set<FilterSpec['kind']>(['boolean', 'number-from', 'number-to', 'reference']);

function useFieldFilters(): Array<{ descriptor: FieldDescriptor; spec: FilterSpec }> {
  const schema = useLiveSchema('sites');
  return useMemo(
    () =>
      (schema?.fields ?? [])
        .filter((field) => !field.column)
        .map(describeField)
        .flatMap((descriptor) =>
          descriptor.filters.filter((spec) => FIELD_FILTER_KINDS.has(spec.kind)).map((spec) => ({ descriptor, spec })),
        ),
    [schema],
  );
}

export function FilterDrawer({ open, options, value, onClose, onApply }: FilterDrawerProps) {
  const [draft, setDraft] = useState<MapFilterValues>(value);
  const fieldFilters = useFieldFilters();
  useEffect(() => {
    if (open) setDraft(value);
  }, [open, value]);

  const list = (key: string) => (Array.isArray(draft[key]) ? (draft[key] as Array<string | number>) : []);
  const text = (key: string) => (typeof draft[key] === 'string' ? (draft[key] as string) : '');
  const set = (key: string, next: Array<string | number> | string) =>
    setDraft((d) => ({ ...d, [key]: next as string | string[] }));
  const categories = useMemo(
    () => (options?.categories ?? []).map((c) => ({ id: c, name: CATEGORY_LABELS[c] ?? c })),
    [options],
  );

  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      slotProps={{ paper: { sx: { width: { xs: '100%', sm: 380 } }, 'data-testid': 'map-filters' } as object }}
    >
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
          <MultiSelect
            name="type"
            label="Site type"
            options={options.site_types}
            value={list('type')}
            onChange={(v) => set('type', v as string[])}
          />
          {categories.length > 1 && (
            <MultiSelect
              name="category"
              label="Category"
              options={categories}
              value={list('category')}
              onChange={(v) => set('category', v as string[])}
            />
          )}
          <MultiSelect
            name="site_status_id"
            label="Status"
            options={options.statuses}
            value={list('site_status_id')}
            onChange={(v) => set('site_status_id', v as any)}
          />
          <MultiSelect
            name="site_phase_id"
            label="Phase"
            options={options.phases}
            value={list('site_phase_id')}
            onChange={(v) => set('site_phase_id', v as any)}
          />
          <MultiSelect
            name="building_type_id"
            label="Building type"
            options={options.building_types}
            value={list('building_type_id')}
            onChange={(v) => set('building_type_id', v as any)}
          />
          <MultiSelect
            name="trade_id"
            label="Trade"
            options={options.trades}
            value={list('trade_id')}
            onChange={(v) => set('trade_id', v as any)}
          />
          {options.contractor_types.length > 0 && (
            <MultiSelect
              name="contractor_type"
              label="Contractor type"
              options={options.contractor_types}
              value={list('contractor_type')}
              onChange={(v) => set('contractor_type', v as string[])}
            />
          )}
          <SearchedSelect
            list="regions"
            label="Region"
            name="region_id"
            open={open}
            value={list('region_id')}
            onChange={(v) => set('region_id', v as any)}
          />
          {options.dropdowns.map((d) => (
            <MultiSelect
              key={d.field}
              name={d.field}
              label={d.label.charAt(0).toUpperCase() + d.label.slice(1)}
              options={d.options}
              value={list(d.field)}
              onChange={(v) => set(d.field, v as string[])}
            />
          ))}
          {fieldFilters.map(({ descriptor, spec }) =>
            spec.kind === 'boolean' ? (
              <TextField
                key={spec.source}
                select
                size="small"
                label={spec.label}
                name={spec.source}
                value={text(spec.source)}
                onChange={(e) => set(spec.source, e.target.value)}
              >
                <MenuItem value="">Any</MenuItem>
                <MenuItem value="true">Yes</MenuItem>
                <MenuItem value="false">No</MenuItem>
              </TextField>
            ) : spec.kind === 'reference' && descriptor.reference ? (
              <SearchedSelect
                key={spec.source}
                list={descriptor.reference.options}
                label={spec.label}
                name={spec.source}
                open={open}
                value={list(spec.source)}
                onChange={(v) => set(spec.source, v as any)}
              />
            ) : spec.kind === 'number-from' || spec.kind === 'number-to' ? (
              <TextField
                key={spec.source}
                size="small"
                type="number"
                label={spec.label}
                name={spec.source}
                value={text(spec.source)}
                onChange={(e) => set(spec.source, e.target.value)}
              />
            ) : null,
          )}
          {options.dates.map((d) => (
            <Box key={d.field}>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 0.75, textTransform: 'capitalize' }}>
                {d.label}
              </Typography>
              <Stack direction="row" spacing={1}>
                <TextField
                  size="small"
                  type="date"
                  label="From"
                  name={`${d.field}_gte`}
                  value={text(`${d.field}_gte`)}
                  onChange={(e) => set(`${d.field}_gte`, e.target.value)}
                  slotProps={{ inputLabel: { shrink: true } }}
                  fullWidth
                />
                <TextField
                  size="small"
                  type="date"
                  label="To"
                  name={`${d.field}_lte`}
                  value={text(`${d.field}_lte`)}
                  onChange={(e) => set(`${d.field}_lte`, e.target.value)}
                  slotProps={{ inputLabel: { shrink: true } }}
                  fullWidth
                />
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
