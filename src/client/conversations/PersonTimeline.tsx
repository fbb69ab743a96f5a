/**
 * A person's timeline (the Timeline tab of a contact, recruit or member): "Log a conversation", then everything that
 * happened with them, newest first: conversations with their outcome, notes and next step, assessment changes, cards
 * signed and messages (GET /api/{resource}/{id}/timeline, each kind as the reader may read it).
 */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { type LinkNames, linkNamesOf } from '../../common/link-names';
import { MESSAGE_STATUS_LABELS, type MessageStatus } from '../../common/messages';
import { formatDateTime } from '../i18n/dates';
import { useLiveRefresh } from '../insights/useInsights';
import { useAppDataProvider } from '../records/hooks';
import { LogConversationButton } from './LogConversationButton';
import { useListNames } from './lists';
import { channelName, type PersonRef } from './shared';

/** The values the timeline shows of each kind of entry's record. */
export interface TimelineRecord {
  id: number;
  user_id?: number | null;
  user_name?: string | null;
  next_step_user_name?: string | null;
  channel?: string;
  outcome?: string | null;
  assessment?: string | null;
  notes?: string | null;
  next_step?: string | null;
  next_step_user_id?: number | null;
  campaign_id?: number;
  from?: string | null;
  level?: string | null;
  is_leader?: boolean;
  on_committee?: boolean;
  direction?: string;
  status?: string;
  status_text?: string;
  body?: string;
  [key: string]: unknown;
}

export interface TimelineEntry {
  kind: string;
  key: string;
  at: string;
  record: TimelineRecord;
}

/** The query key of a person's timeline: under `conversations`, so a conversation logged anywhere refreshes it. */
export const timelineKey = (person: PersonRef) => ['conversations', 'timeline', person.type, person.id];

/** A person's timeline, newest first, kept fresh by live updates. */
export function usePersonTimeline(person: PersonRef) {
  useLiveRefresh();
  const dataProvider = useAppDataProvider();
  return useQuery({
    queryKey: timelineKey(person),
    queryFn: ({ signal }) => dataProvider.personTimeline<TimelineEntry>(person, signal),
  });
}

export function PersonTimeline({ person }: { person: PersonRef }) {
  const { data, isPending, error } = usePersonTimeline(person);
  const entries = data ?? [];
  return (
    <Stack spacing={2} data-testid="person-timeline">
      <Box>
        <LogConversationButton person={person} />
      </Box>
      {error && <Typography color="error">The timeline could not be read: {error.message}</Typography>}
      {!isPending && !error && !entries.length && (
        <Typography color="text.secondary">Nothing yet: log the first conversation.</Typography>
      )}
      <TimelineEntries entries={entries} />
    </Stack>
  );
}

/** Timeline entries as a list: when and by whom, then what happened. */
export function TimelineEntries({ entries }: { entries: readonly TimelineEntry[] }) {
  const outcomes = useListNames('conversation-outcomes');
  const levels = useListNames('assessment-levels');
  return (
    <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {entries.map((entry) => (
        <Box
          component="li"
          key={entry.key}
          sx={{ py: 1.25, borderBottom: 1, borderColor: 'divider' }}
          data-kind={entry.kind}
          data-testid="timeline-entry"
        >
          <Typography variant="caption" color="text.secondary" component="div">
            {formatDateTime(entry.at)}
            {byWhom(entry.record)}
          </Typography>
          {describe(entry, outcomes, levels)}
        </Box>
      ))}
    </Box>
  );
}

/** The name a record carries for the record a relation field links to. */
const nameOf = (names: LinkNames | undefined, field: string, id: number | null | undefined) =>
  id === null || id === undefined ? undefined : names?.[field]?.[id];

const statusLabel = (status: unknown) => MESSAGE_STATUS_LABELS[status as MessageStatus] ?? String(status);

function byWhom(record: TimelineRecord) {
  const name = record.user_name ?? (record.user_id ? linkNamesOf(record)?.user_id?.[record.user_id] : undefined);
  return name ? ` · ${name}` : '';
}

function describe(entry: TimelineEntry, outcomes: Map<string, string>, levels: Map<string, string>): ReactNode {
  const record = entry.record;
  const names = linkNamesOf(record);
  if (entry.kind === 'conversation')
    return (
      <Stack spacing={0.5}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography sx={{ fontWeight: 600 }}>{channelName(record.channel)}</Typography>
          {record.outcome && <Chip size="small" label={outcomes.get(record.outcome) ?? record.outcome} />}
          {record.assessment && (
            <Chip
              size="small"
              variant="outlined"
              label={`Assessed ${record.assessment}${levels.has(record.assessment) ? ` ${levels.get(record.assessment)}` : ''}`}
            />
          )}
        </Stack>
        {record.notes && (
          <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{record.notes}</Typography>
        )}
        {record.next_step && (
          <Typography variant="body2" color="text.secondary">
            Next step: {record.next_step}
            {record.next_step_user_name ? ` (${record.next_step_user_name})` : ''}
          </Typography>
        )}
      </Stack>
    );
  if (entry.kind === 'card')
    return (
      <Typography>
        Signed a card
        {nameOf(names, 'campaign_id', record.campaign_id)
          ? ` in ${nameOf(names, 'campaign_id', record.campaign_id)}`
          : ''}
      </Typography>
    );
  if (entry.kind === 'assessment')
    return (
      <Typography>
        Assessment {record.from ? `${record.from} → ` : ''}
        {record.level ? `${record.level} ${levels.get(record.level) ?? ''}`.trim() : 'cleared'}
        {record.is_leader ? ' · leader' : ''}
        {record.on_committee ? ' · committee' : ''}
      </Typography>
    );
  if (entry.kind === 'message')
    return (
      <Stack spacing={0.5}>
        <Typography sx={{ fontWeight: 600 }}>
          {record.direction === 'in' ? 'Reply' : record.channel === 'email' ? 'Email' : 'Text'}
          {record.status && record.direction !== 'in' ? ` · ${statusLabel(record.status)}` : ''}
        </Typography>
        <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{record.body}</Typography>
      </Stack>
    );
  return <Typography>{entry.kind}</Typography>;
}
