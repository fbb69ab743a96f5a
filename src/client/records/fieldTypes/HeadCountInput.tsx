/**
 * A head count (the `head-count` field type, common/head-count.ts), made for a phone on a job site: one card per
 * contractor seen, with its trades and a stepper (− / +) for each count. The site's known contractors (the form's
 * `site_id`) are offered first; a new visit starts from the counts of the site's last visit. Loaded on demand.
 */

import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import RemoveIcon from '@mui/icons-material/Remove';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useGetList, useGetMany, useGetOne, useInput, useRecordContext } from 'react-admin';
import { useWatch } from 'react-hook-form';
import {
  HEAD_COUNT_LABELS,
  HEAD_COUNT_MAX,
  HEAD_COUNT_NUMBERS,
  type HeadCountNumber,
  type HeadCountRow,
  headCountProblem,
} from '../../../common/head-count';
import { formatDate } from '../../i18n/dates';
import { recordLabel } from '../label';
import type { FieldDescriptor } from './describe';

const emptyRow = (contractor_id: number, trade_ids: number[] = []): HeadCountRow => ({
  contractor_id,
  trade_ids,
  ...(Object.fromEntries(HEAD_COUNT_NUMBERS.map((key) => [key, 0])) as Record<HeadCountNumber, number>),
});

/** The first problem of the rows (the server's rule), for react-admin's validation. */
function validateRows(value: unknown): string | undefined {
  if (!Array.isArray(value)) return undefined;
  for (const [index, row] of value.entries()) {
    const problem = headCountProblem(row, `Row ${index + 1}`);
    if (problem) return problem;
  }
  return undefined;
}
const VALIDATE = [validateRows];

/** The contractors the site is known to have: its general contractor and its other contractors, with their trade. */
function useKnownContractors(siteId: unknown) {
  const enabled = typeof siteId === 'number' || (typeof siteId === 'string' && siteId !== '');
  const { data: site } = useGetOne('sites', { id: siteId as number }, { enabled });
  return useMemo(() => {
    if (!site) return [] as Array<{ contractor_id: number; trade_ids: number[] }>;
    const known = new Map<number, number[]>();
    if (site.general_contractor_id) known.set(Number(site.general_contractor_id), []);
    for (const link of (site.contractors ?? []) as Array<{ contractor_id: number; trade_id: number | null }>) {
      const trades = known.get(link.contractor_id) ?? [];
      if (link.trade_id && !trades.includes(link.trade_id)) trades.push(link.trade_id);
      known.set(link.contractor_id, trades);
    }
    return [...known].map(([contractor_id, trade_ids]) => ({ contractor_id, trade_ids }));
  }, [site]);
}

/** The site's last visit, the starting point of a new one. */
function useLastVisit(siteId: unknown, enabled: boolean) {
  const { data } = useGetList(
    'visits',
    { filter: { site_id: siteId }, sort: { field: 'visited_at', order: 'DESC' }, pagination: { page: 1, perPage: 1 } },
    { enabled: enabled && Boolean(siteId) },
  );
  return data?.[0] as { id: number; visited_at: string; head_counts?: HeadCountRow[] } | undefined;
}

export default function HeadCountInput({ descriptor }: { descriptor: FieldDescriptor }) {
  const { field, fieldState } = useInput({ source: descriptor.slug, validate: VALIDATE });
  const rows: HeadCountRow[] = useMemo(() => (Array.isArray(field.value) ? field.value : []), [field.value]);
  const record = useRecordContext();
  const creating = !record?.id;
  const siteId = useWatch({ name: 'site_id' });
  const known = useKnownContractors(siteId);
  const last = useLastVisit(siteId, creating);
  const [startedFrom, setStartedFrom] = useState<string | null>(null);
  const seededFor = useRef<unknown>(null);

  // A new visit starts from the last visit's head count at the site: who was there and how many (the
  // conversations are this visit's own).
  useEffect(() => {
    if (!creating || !last?.head_counts?.length || seededFor.current === siteId || rows.length) return;
    seededFor.current = siteId;
    field.onChange(
      last.head_counts.map((row) => ({
        ...emptyRow(row.contractor_id, row.trade_ids ?? []),
        workers: row.workers,
        union_workers: row.union_workers,
        non_union_workers: row.non_union_workers,
      })),
    );
    setStartedFrom(last.visited_at);
  }, [creating, last, siteId, rows.length, field]);

  const contractorIds = useMemo(
    () => [...new Set([...rows.map((r) => r.contractor_id), ...known.map((k) => k.contractor_id)])],
    [rows, known],
  );
  const { data: contractors = [] } = useGetMany(
    'contractors',
    { ids: contractorIds },
    { enabled: contractorIds.length > 0 },
  );
  const { data: trades = [] } = useGetList('trades', {
    pagination: { page: 1, perPage: 500 },
    sort: { field: 'name', order: 'ASC' },
  });
  const nameOf = (id: number) => recordLabel(contractors.find((c) => c.id === id)) || `Contractor #${id}`;
  const offered = known.filter((k) => !rows.some((row) => row.contractor_id === k.contractor_id));

  const change = (index: number, next: HeadCountRow) =>
    field.onChange(rows.map((row, i) => (i === index ? next : row)));
  const add = (contractorId: number, tradeIds: number[] = []) =>
    field.onChange([...rows, emptyRow(contractorId, tradeIds)]);

  return (
    <Box data-testid="head-count-input" sx={{ my: 1 }}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {descriptor.label}
      </Typography>
      {startedFrom && rows.length > 0 && (
        <Alert
          severity="info"
          sx={{ my: 1 }}
          action={
            <Button
              color="inherit"
              size="small"
              onClick={() => {
                field.onChange([]);
                setStartedFrom(null);
              }}
            >
              Start empty
            </Button>
          }
        >
          Counts start from the visit of {formatDate(startedFrom)}. Change what is different today.
        </Alert>
      )}
      <Stack spacing={1.5} sx={{ my: 1 }}>
        {rows.map((row, index) => (
          <RowCard
            key={`${row.contractor_id}-${index}`}
            index={index}
            row={row}
            name={nameOf(row.contractor_id)}
            trades={trades}
            onChange={(next) => change(index, next)}
            onRemove={() => field.onChange(rows.filter((_r, i) => i !== index))}
          />
        ))}
      </Stack>
      {offered.length > 0 && (
        <Box sx={{ mb: 1 }}>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
            Contractors on this site
          </Typography>
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
            {offered.map((k) => (
              <Chip
                key={k.contractor_id}
                icon={<AddIcon />}
                label={nameOf(k.contractor_id)}
                onClick={() => add(k.contractor_id, k.trade_ids)}
                sx={{ height: 44, fontSize: '0.95rem', borderRadius: 22 }}
                data-testid="head-count-known"
              />
            ))}
          </Stack>
        </Box>
      )}
      <OtherContractor onPick={(id) => add(id)} exclude={rows.map((r) => r.contractor_id)} />
      {fieldState.error?.message && (
        <FormHelperText error role="alert" data-testid="head-count-error">
          {fieldState.error.message}
        </FormHelperText>
      )}
    </Box>
  );
}

function RowCard({
  index,
  row,
  name,
  trades,
  onChange,
  onRemove,
}: {
  index: number;
  row: HeadCountRow;
  name: string;
  trades: Array<{ id: number | string; name?: string }>;
  onChange: (row: HeadCountRow) => void;
  onRemove: () => void;
}) {
  const problem = headCountProblem(row, 'This contractor');
  const chosen = trades.filter((trade) => (row.trade_ids ?? []).includes(Number(trade.id)));
  const set = (key: HeadCountNumber, value: number) => {
    const next = { ...row, [key]: Math.max(0, Math.min(HEAD_COUNT_MAX, value)) };
    // Counting union or non-union workers counts them as workers too.
    if (
      (key === 'union_workers' || key === 'non_union_workers') &&
      next.union_workers + next.non_union_workers > next.workers
    )
      next.workers = next.union_workers + next.non_union_workers;
    onChange(next);
  };
  return (
    <Card variant="outlined" sx={{ p: 1.5 }} data-testid="head-count-row">
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="subtitle1" component="h4" sx={{ flex: 1, fontWeight: 600, minWidth: 0 }}>
          {name}
        </Typography>
        <IconButton onClick={onRemove} aria-label={`Remove ${name} from the head count`} sx={{ width: 44, height: 44 }}>
          <DeleteOutlineIcon />
        </IconButton>
      </Stack>
      <Autocomplete
        multiple
        options={trades}
        value={chosen}
        getOptionLabel={(trade) => recordLabel(trade)}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        onChange={(_event, value) => onChange({ ...row, trade_ids: value.map((trade) => Number(trade.id)) })}
        renderInput={(params) => <TextField {...params} label={`Trades (row ${index + 1})`} />}
        sx={{ mb: 1.5 }}
      />
      {COUNT_GROUPS.map(([title, keys]) => (
        <Box key={title} sx={{ mt: 1 }}>
          <Typography variant="overline" color="text.secondary" component="div">
            {title}
          </Typography>
          <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(136px, 1fr))', gap: 1.5 }}>
            {keys.map((key) => (
              <Stepper
                key={key}
                label={HEAD_COUNT_LABELS[key]}
                value={row[key] ?? 0}
                onChange={(value) => set(key, value)}
                name={`${name}: ${HEAD_COUNT_LABELS[key]}`}
                min={key === 'workers' ? row.union_workers + row.non_union_workers : 0}
              />
            ))}
          </Box>
        </Box>
      ))}
      {problem && (
        <FormHelperText error sx={{ mt: 1 }}>
          {problem}
        </FormHelperText>
      )}
    </Card>
  );
}

/** The counts of a row: who was there, then the conversations had. */
const COUNT_GROUPS: ReadonlyArray<[string, readonly HeadCountNumber[]]> = [
  ['Workers', HEAD_COUNT_NUMBERS.slice(0, 3)],
  ['Conversations', HEAD_COUNT_NUMBERS.slice(3)],
];

/** A count with big − and + buttons around the number (which can be typed too). */
function Stepper({
  label,
  name,
  value,
  min,
  onChange,
}: {
  label: string;
  name: string;
  value: number;
  min: number;
  onChange: (value: number) => void;
}) {
  return (
    <Box>
      <Typography variant="body2" color="text.secondary" component="div" sx={{ mb: 0.5 }}>
        {label}
      </Typography>
      <Stack direction="row" sx={{ alignItems: 'center' }}>
        <IconButton
          onClick={() => onChange(value - 1)}
          disabled={value <= min}
          aria-label={`${name}: one fewer`}
          sx={{ width: 48, height: 48, flexShrink: 0, border: 1, borderColor: 'divider', borderRadius: '8px 0 0 8px' }}
        >
          <RemoveIcon />
        </IconButton>
        <TextField
          value={String(value)}
          onChange={(event) => {
            const digits = event.target.value.replace(/\D/g, '');
            onChange(digits === '' ? 0 : Number(digits));
          }}
          slotProps={{
            htmlInput: {
              inputMode: 'numeric',
              'aria-label': name,
              style: { textAlign: 'center', fontSize: 18, padding: '12px 4px' },
            },
          }}
          sx={{ flex: 1, minWidth: 40, maxWidth: 80, '& .MuiInputBase-root': { borderRadius: 0 } }}
        />
        <IconButton
          onClick={() => onChange(value + 1)}
          aria-label={`${name}: one more`}
          sx={{ width: 48, height: 48, flexShrink: 0, border: 1, borderColor: 'divider', borderRadius: '0 8px 8px 0' }}
        >
          <AddIcon />
        </IconButton>
      </Stack>
    </Box>
  );
}

/** Any other contractor, searched by name. */
function OtherContractor({ onPick, exclude }: { onPick: (id: number) => void; exclude: number[] }) {
  const [q, setQ] = useState('');
  const { data = [], isPending } = useGetList('contractors', {
    filter: q ? { q } : {},
    pagination: { page: 1, perPage: 20 },
    sort: { field: 'name', order: 'ASC' },
  });
  const options = data.filter((c) => !exclude.includes(Number(c.id)));
  return (
    <Autocomplete
      options={options}
      value={null}
      loading={isPending}
      inputValue={q}
      onInputChange={(_event, value, reason) => reason !== 'reset' && setQ(value)}
      filterOptions={(all) => all}
      getOptionLabel={(c) => recordLabel(c)}
      onChange={(_event, picked) => {
        if (picked) onPick(Number(picked.id));
        setQ('');
      }}
      renderInput={(params) => (
        <TextField {...params} label="Add another contractor" placeholder="Search contractors" />
      )}
      sx={{ '& .MuiInputBase-root': { minHeight: 48 } }}
    />
  );
}
