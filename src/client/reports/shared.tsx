/**
 * What the dashboard, the activity feed and the report screens share: reading the figures endpoints with react-query,
 * live refresh on model events, filters kept in the URL, links from a figure to the list it counts, CSV links and a
 * table that scrolls sideways on a phone instead of squeezing.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import DownloadIcon from '@mui/icons-material/Download';
import Pusher from 'pusher-js';
import { dataProvider } from '../app/services';
import { withQuery, type Query } from '../http/query';

/** A figure's list: `GET /api/{resource}?filter=...` counts exactly the figure (docs/reports.md). */
export interface FigureLink {
  resource: string;
  filter: Record<string, unknown>;
}

/** The react-admin list URL of a figure's list (`/tasks?filter={...}`). */
export function listHref(link: FigureLink | null | undefined): string | null {
  if (!link) return null;
  return `/${link.resource}?${new URLSearchParams({ filter: JSON.stringify(link.filter) }).toString()}`;
}

/** The part of the react-query cache these screens own; invalidated together on any model event. */
export const INSIGHTS_KEY = 'insights';

/** GET an /api path with a query; the answer as it comes (`{data, meta, ...}`). */
export function useApi<T = any>(path: string, query: Query = {}, options: { enabled?: boolean } = {}) {
  return useQuery<T, Error & { status?: number }>({
    queryKey: [INSIGHTS_KEY, path, query],
    queryFn: ({ signal }) => dataProvider.call('GET', path, { query, signal }),
    enabled: options.enabled ?? true,
    staleTime: 5_000,
    placeholderData: (previous) => previous,
  });
}

const MODEL_EVENT = /Model(Created|Updated|Saved|Destroyed)$/;

/**
 * Refetch these screens' figures when anything changes: every model event (created, updated, saved, destroyed) on
 * the shell's realtime connection. The shell's connection is found through pusher-js (`Pusher.instances`) so no
 * second socket is opened; bursts are coalesced into one refetch.
 */
export function useLiveRefresh(onChange?: () => void) {
  const queryClient = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        void queryClient.invalidateQueries({ queryKey: [INSIGHTS_KEY] });
        onChange?.();
      }, 250);
    };
    const handler = (eventName: string) => {
      if (MODEL_EVENT.test(eventName)) refresh();
    };
    const attached = new Set<Pusher>();
    const attach = () => {
      for (const instance of (Pusher as unknown as { instances: Pusher[] }).instances ?? []) {
        if (attached.has(instance)) continue;
        instance.bind_global(handler);
        attached.add(instance);
      }
    };
    attach();
    // The shell connects after sign-in and reconnects when the person changes: look again now and then.
    const scan = setInterval(attach, 2_000);
    // Without a socket (blocked websockets) the figures still catch up when the tab comes back.
    const onFocus = () => refresh();
    window.addEventListener('focus', onFocus);
    return () => {
      clearInterval(scan);
      clearTimeout(timer);
      window.removeEventListener('focus', onFocus);
      for (const instance of attached) instance.unbind_global(handler);
    };
  }, [queryClient, onChange]);
}

/** Filters kept in the URL (so a report can be bookmarked, shared and reloaded as it was). */
export function useUrlFilters<T extends Record<string, string>>(defaults: T) {
  const [params, setParams] = useSearchParams();
  const values = useMemo(() => {
    const current: Record<string, string> = { ...defaults };
    for (const [key, value] of params) current[key] = value;
    return current as T & Record<string, string>;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [params]);
  const set = (changes: Record<string, string | null | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === undefined || value === '' || value === defaults[key]) next.delete(key);
      else next.set(key, value);
    }
    setParams(next, { replace: true });
  };
  /** The filters to send: empty ones left out. */
  const query = useMemo(() => Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '' && v !== undefined)) as Record<string, string>, [values]);
  return { values, set, query };
}

/** Options for a filter picker (`GET /api/options/{name}`); empty when the person may not read them. */
export function useOptions(name: string) {
  return useQuery<Array<{ id: number | string; name: string; [key: string]: unknown }>>({
    queryKey: [INSIGHTS_KEY, 'options', name],
    queryFn: () => dataProvider.options(name).catch(() => []),
    staleTime: 5 * 60_000,
  }).data ?? [];
}

export function SelectFilter({ label, value, onChange, options, allLabel = 'All', testId, minWidth = 150 }: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: ReadonlyArray<{ value: string; label: string }>;
  allLabel?: string | null;
  testId?: string;
  minWidth?: number;
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      fullWidth={false}
      sx={{ minWidth, width: { xs: 'auto', sm: Math.max(minWidth, 180) }, flex: { xs: '1 1 140px', sm: '0 0 auto' } }}
      slotProps={{ htmlInput: { 'data-testid': testId } }}
    >
      {allLabel !== null && <MenuItem value="">{allLabel}</MenuItem>}
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

export function DateFilter({ label, value, onChange, testId }: { label: string; value: string; onChange: (value: string) => void; testId?: string }) {
  return (
    <TextField
      type="date"
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      fullWidth={false}
      sx={{ width: { xs: 'calc(50% - 4px)', sm: 165 } }}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': testId } }}
    />
  );
}

/** A row of filters that wraps on a phone. */
export function FilterBar({ children }: { children: ReactNode }) {
  return (
    <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 2 }} data-testid="filters">
      {children}
    </Stack>
  );
}

/** "Download CSV": the same endpoint and filters, `format=csv` (the session cookie rides along). */
export function CsvButton({ path, query }: { path: string; query: Record<string, string> }) {
  const href = withQuery(path, { ...query, format: 'csv' });
  return (
    <Button component="a" href={href} download variant="outlined" size="small" startIcon={<DownloadIcon />} data-testid="csv-export">
      CSV
    </Button>
  );
}

export function PageHeader({ title, actions, subtitle }: { title: string; actions?: ReactNode; subtitle?: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ justifyContent: 'space-between', alignItems: { xs: 'flex-start', sm: 'center' }, gap: 1, mb: 2, mt: 1 }}>
      <Box>
        <Typography component="h1" variant="h5" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        {subtitle && (
          <Typography variant="body2" color="text.secondary">
            {subtitle}
          </Typography>
        )}
      </Box>
      {actions && <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>{actions}</Stack>}
    </Stack>
  );
}

/** A number that opens the list it counts. */
export function FigureLinkText({ link, children, testId }: { link: FigureLink | null | undefined; children: ReactNode; testId?: string }) {
  const href = listHref(link);
  if (!href) return <span data-testid={testId}>{children}</span>;
  return (
    <Link component={RouterLink} to={href} underline="hover" data-testid={testId}>
      {children}
    </Link>
  );
}

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const status = (error as { status?: number }).status;
  const message = (error as { message?: string }).message;
  return (
    <Alert severity={status === 403 ? 'info' : 'error'} sx={{ mb: 2 }}>
      {status === 403 ? (message ?? 'You do not have permission to see this.') : `This could not be loaded. ${message ?? ''}`}
    </Alert>
  );
}

export const formatNumber = (value: number | null | undefined, digits = 0) =>
  value === null || value === undefined ? '–' : value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });

export const formatMoney = (value: number | null | undefined) =>
  value === null || value === undefined ? '–' : value.toLocaleString('en-US', { style: 'currency', currency: 'USD', notation: value >= 1e7 ? 'compact' : 'standard', maximumFractionDigits: value >= 1e7 ? 1 : 0 });

export const formatPercent = (value: number | null | undefined) => (value === null || value === undefined ? '–' : `${value.toLocaleString('en-US', { maximumFractionDigits: 1 })}%`);

/** The width of the window, for charts that must fit a 390 px phone. */
export function useNarrow(limit = 600) {
  const [narrow, setNarrow] = useState(() => typeof window !== 'undefined' && window.innerWidth < limit);
  useEffect(() => {
    const onResize = () => setNarrow(window.innerWidth < limit);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [limit]);
  return narrow;
}

/** First and last day (YYYY-MM-DD) of this month. */
export function thisMonth(now = new Date()) {
  const y = now.getFullYear();
  const m = now.getMonth();
  const pad = (n: number) => String(n).padStart(2, '0');
  const last = new Date(y, m + 1, 0).getDate();
  return { from: `${y}-${pad(m + 1)}-01`, to: `${y}-${pad(m + 1)}-${pad(last)}`, month: `${y}-${pad(m + 1)}` };
}

const REPORTS: ReadonlyArray<[string, string]> = [
  ['/reports/market-share', 'Market share'],
  ['/reports/classifications', 'Classifications'],
  ['/reports/task-performance', 'Task performance'],
  ['/reports/user-performance', 'User performance'],
];

/** Links between the reports (they have one sidebar entry, the market share). */
export function ReportsNav() {
  const here = typeof window !== 'undefined' ? window.location.pathname : '';
  return (
    <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap', mb: 1 }} component="nav" aria-label="Reports">
      {REPORTS.map(([path, label]) => (
        <Button key={path} component={RouterLink} to={path} size="small" variant={here === path ? 'contained' : 'text'} disableElevation>
          {label}
        </Button>
      ))}
    </Stack>
  );
}
