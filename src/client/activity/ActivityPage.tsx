/**
 * `/actions`: the activity feed (GET /api/actions), newest first, live: any model event refetches it. Filters (person,
 * record type, region, dates) are kept in the URL; "Show older" pages back with the feed's cursor.
 */
import { useCallback, useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Title } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import { dataProvider } from '../app/services';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { DateFilter, FilterBar, SelectFilter } from '../insights/filters';
import { ErrorNote } from '../insights/ErrorNote';
import { INSIGHTS_KEY, useApi, useLiveRefresh, useOptions } from '../insights/useInsights';
import { PageHeader } from '../insights/PageHeader';
import { useUrlFilters } from '../insights/useUrlFilters';

export interface FeedEntry {
  id: number;
  kind: 'created' | 'updated' | 'deleted' | 'restored' | 'imported' | 'note-added' | 'task-completed' | 'import-finished';
  action: string;
  type: string;
  type_name: string;
  resource: string | null;
  record_id: number;
  record_label: string;
  record_deleted: boolean;
  link: string | null;
  parent: { type: string; id: number; label: string; link: string | null } | null;
  user: { id: number; name: string } | null;
  fields: string[];
  created_at: string;
}

interface FeedAnswer {
  data: FeedEntry[];
  meta: { has_more: boolean; next_before: number | null; newest: number | null };
}

const VERBS: Record<FeedEntry['kind'], string> = {
  created: 'created',
  updated: 'changed',
  deleted: 'deleted',
  restored: 'restored',
  imported: 'imported',
  'note-added': 'added a note',
  'task-completed': 'completed',
  'import-finished': 'finished',
};

const COLORS: Partial<Record<FeedEntry['kind'], 'success' | 'error' | 'info' | 'warning' | 'primary'>> = {
  created: 'success',
  deleted: 'error',
  restored: 'info',
  imported: 'warning',
  'task-completed': 'success',
  'note-added': 'primary',
  'import-finished': 'info',
};

/** Record types a person can pick in the filter. */
const TYPES: ReadonlyArray<[string, string]> = [
  ['site', 'Job sites'],
  ['contractor', 'Contractors'],
  ['contact', 'Contacts'],
  ['member', 'Members'],
  ['recruit', 'Recruits'],
  ['grievance', 'Grievances'],
  ['task', 'Tasks'],
  ['note', 'Notes'],
  ['import', 'Imports'],
  ['user', 'Users'],
  ['team', 'Teams'],
  ['role', 'Roles'],
];

export function describe(entry: FeedEntry): string {
  const who = entry.user?.name || 'The system';
  const what = `${entry.type_name.toLowerCase()} ${entry.record_label}`;
  if (entry.kind === 'note-added') return `${who} added a note${entry.parent ? ` on ${entry.parent.label}` : ''}`;
  if (entry.kind === 'updated' && entry.fields.length) return `${who} changed ${entry.fields.slice(0, 3).join(', ').replace(/_/g, ' ')}${entry.fields.length > 3 ? '…' : ''} of ${what}`;
  return `${who} ${VERBS[entry.kind]} ${what}`;
}

function timeAgo(iso: string, now: number) {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

export default function ActivityPage() {
  useDocumentTitle('Activity');
  const { values, set, query } = useUrlFilters({ user_id: '', type: '', region_id: '', from: '', to: '' });
  const first = useApi<FeedAnswer>('/api/actions', { ...query, per_page: 30 });
  const [older, setOlder] = useState<FeedEntry[]>([]);
  const [cursor, setCursor] = useState<number | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const queryClient = useQueryClient();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  // New filters: start again from the newest.
  const filterKey = JSON.stringify(query);
  useEffect(() => {
    setOlder([]);
    setCursor(null);
  }, [filterKey]);
  useLiveRefresh(useCallback(() => setNow(Date.now()), []));
  const people = useOptions('users');
  const regions = useOptions('regions');

  const page = first.data;
  const entries = [...(page?.data ?? []), ...older.filter((e) => !page?.data.some((p) => p.id === e.id))];
  const nextCursor = cursor ?? page?.meta.next_before ?? null;
  const hasMore = older.length ? cursor !== null : Boolean(page?.meta.has_more);

  const showOlder = async () => {
    if (!nextCursor) return;
    setLoadingOlder(true);
    try {
      const answer: FeedAnswer = await dataProvider.call('GET', '/api/actions', { query: { ...query, per_page: 30, before: nextCursor } });
      setOlder((list) => [...list, ...answer.data]);
      setCursor(answer.meta.has_more ? answer.meta.next_before : null);
    } finally {
      setLoadingOlder(false);
    }
  };

  return (
    <>
      <Title title="Activity" />
      <PageHeader
        title="Activity"
        subtitle="What happened, newest first. It updates as people work."
        actions={
          <Button size="small" onClick={() => void queryClient.invalidateQueries({ queryKey: [INSIGHTS_KEY, '/api/actions'] })}>
            Refresh
          </Button>
        }
      />
      <FilterBar>
        {people.length > 0 && <SelectFilter label="Person" value={values.user_id} onChange={(user_id) => set({ user_id })} options={people.map((p) => ({ value: String(p.id), label: p.name }))} allLabel="Everyone" testId="filter-person" />}
        <SelectFilter label="Record type" value={values.type} onChange={(type) => set({ type })} options={TYPES.map(([value, label]) => ({ value, label }))} allLabel="All records" testId="filter-type" />
        {regions.length > 0 && <SelectFilter label="Region" value={values.region_id} onChange={(region_id) => set({ region_id })} options={regions.map((r) => ({ value: String(r.id), label: r.name }))} allLabel="All regions" testId="filter-region" />}
        <DateFilter label="From" value={values.from} onChange={(from) => set({ from })} testId="filter-from" />
        <DateFilter label="To" value={values.to} onChange={(to) => set({ to })} testId="filter-to" />
      </FilterBar>
      <ErrorNote error={first.error} />
      <Card variant="outlined">
        {page && entries.length === 0 && (
          <Typography sx={{ p: 3 }} color="text.secondary" data-testid="feed-empty">
            Nothing has happened here yet{Object.keys(query).length ? ' for these filters' : ''}.
          </Typography>
        )}
        <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0 }} data-testid="activity-feed" aria-live="polite">
          {entries.map((entry) => (
            <Box component="li" key={entry.id} data-testid="feed-entry" sx={{ display: 'flex', gap: 1.5, px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider', '&:last-child': { borderBottom: 0 } }}>
              <Avatar sx={{ width: 32, height: 32, fontSize: 14, bgcolor: 'primary.light' }}>{initials(entry.user?.name)}</Avatar>
              <Box sx={{ minWidth: 0, flex: 1 }}>
                <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                  {entry.link && !entry.record_deleted ? (
                    <Link component={RouterLink} to={entry.link} underline="hover" color="inherit">
                      {describe(entry)}
                    </Link>
                  ) : (
                    describe(entry)
                  )}
                </Typography>
                <Stack direction="row" sx={{ gap: 1, alignItems: 'center', mt: 0.5, flexWrap: 'wrap' }}>
                  <Chip size="small" variant="outlined" color={COLORS[entry.kind] ?? 'default'} label={VERBS[entry.kind]} />
                  {entry.parent && entry.kind !== 'note-added' && entry.parent.link && (
                    <Link component={RouterLink} to={entry.parent.link} variant="caption">
                      on {entry.parent.label}
                    </Link>
                  )}
                  <Typography variant="caption" color="text.secondary" title={new Date(entry.created_at).toLocaleString()}>
                    {timeAgo(entry.created_at, now)}
                  </Typography>
                </Stack>
              </Box>
            </Box>
          ))}
        </Box>
      </Card>
      {hasMore && (
        <Box sx={{ textAlign: 'center', mt: 2 }}>
          <Button variant="outlined" onClick={() => void showOlder()} disabled={loadingOlder}>
            Show older
          </Button>
        </Box>
      )}
    </>
  );
}

function initials(name: string | undefined) {
  if (!name) return '·';
  const parts = name.split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? parts[parts.length - 1][0] : '')).toUpperCase();
}
