/**
 * `/actions`: the activity feed (GET /api/actions), newest first, live: any model event refetches it. Filters (person,
 * record type, region, dates) are kept in the URL; "Show older" pages back with the feed's cursor. A bulk change (an
 * import, a region upload) is one entry that opens to list what it wrote.
 */

import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { Title } from 'react-admin';
import { ErrorNote } from '../insights/ErrorNote';
import { DateFilter, FilterBar, SelectFilter } from '../insights/filters';
import { INSIGHTS_KEY, useLiveRefresh, useOptions } from '../insights/useInsights';
import { useUrlFilters } from '../insights/useUrlFilters';
import { PageHeader } from '../layout/PageHeader';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { FeedItem } from './FeedItem';
import { useFeed } from './useFeed';

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

export default function ActivityPage() {
  useDocumentTitle('Activity');
  const { values, set, query } = useUrlFilters({ user_id: '', type: '', region_id: '', from: '', to: '' });
  const feed = useFeed(query);
  const queryClient = useQueryClient();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  useLiveRefresh(useCallback(() => setNow(Date.now()), []));
  const people = useOptions('users');
  const regions = useOptions('regions');

  return (
    <>
      <Title title="Activity" />
      <PageHeader
        title="Activity"
        subtitle="What happened, newest first. It updates as people work."
        actions={
          <Button
            size="small"
            onClick={() => void queryClient.invalidateQueries({ queryKey: [INSIGHTS_KEY, '/api/actions'] })}
          >
            Refresh
          </Button>
        }
      />
      <FilterBar>
        {people.length > 0 && (
          <SelectFilter
            label="Person"
            value={values.user_id}
            onChange={(user_id) => set({ user_id })}
            options={people.map((p) => ({ value: String(p.id), label: p.name }))}
            allLabel="Everyone"
            testId="filter-person"
          />
        )}
        <SelectFilter
          label="Record type"
          value={values.type}
          onChange={(type) => set({ type })}
          options={TYPES.map(([value, label]) => ({ value, label }))}
          allLabel="All records"
          testId="filter-type"
        />
        {regions.length > 0 && (
          <SelectFilter
            label="Region"
            value={values.region_id}
            onChange={(region_id) => set({ region_id })}
            options={regions.map((r) => ({ value: String(r.id), label: r.name }))}
            allLabel="All regions"
            testId="filter-region"
          />
        )}
        <DateFilter label="From" value={values.from} onChange={(from) => set({ from })} testId="filter-from" />
        <DateFilter label="To" value={values.to} onChange={(to) => set({ to })} testId="filter-to" />
      </FilterBar>
      <ErrorNote error={feed.error} />
      <Card variant="outlined">
        {feed.loaded && feed.entries.length === 0 && (
          <Typography sx={{ p: 3 }} color="text.secondary" data-testid="feed-empty">
            Nothing has happened here yet{Object.keys(query).length ? ' for these filters' : ''}.
          </Typography>
        )}
        <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0 }} data-testid="activity-feed" aria-live="polite">
          {feed.entries.map((entry) => (
            <FeedItem key={entry.id} entry={entry} now={now} query={query} />
          ))}
        </Box>
      </Card>
      {feed.hasMore && (
        <Box sx={{ textAlign: 'center', mt: 2 }}>
          <Button variant="outlined" onClick={() => void feed.showOlder()} disabled={feed.loadingOlder}>
            Show older
          </Button>
        </Box>
      )}
    </>
  );
}
