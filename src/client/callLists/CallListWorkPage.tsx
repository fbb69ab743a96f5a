/**
 * Working a call list (`/call-lists/:id`): one person at a time, the one the server gave this caller (no one else is
 * given them meanwhile): their phone, their last conversations, the list's script, notes, and one button per outcome
 * that logs the call and brings the next person. Skip puts them back at the end of the list.
 */
import CallIcon from '@mui/icons-material/Call';
import SkipNextIcon from '@mui/icons-material/SkipNext';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { Title, useDataProvider, useGetOne, useNotify } from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { useListInOrder } from '../conversations/lists';
import { TimelineEntries, usePersonTimeline } from '../conversations/PersonTimeline';
import { ApiError } from '../http/errors';
import type { AppDataProvider } from '../providers/dataProvider';
import { CallListProgressBar } from './CallListProgressBar';
import type { CallList, CallListEntry } from './types';

/** How many of a person's last conversations the caller sees. */
const LAST_CONVERSATIONS = 3;

export default function CallListWorkPage() {
  const id = Number(useParams<{ id: string }>().id);
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { data: list, error, refetch } = useGetOne<CallList>('call-lists', { id });
  // undefined while the next person is asked for; null once nobody is left.
  const [entry, setEntry] = useState<CallListEntry | null | undefined>(undefined);

  const takeNext = useCallback(async () => {
    setEntry(undefined);
    try {
      const { data } = await dataProvider.action('call-lists', { id, action: 'next' });
      setEntry(data as CallListEntry | null);
    } catch (failure) {
      notify(failure instanceof Error ? failure.message : 'The next person could not be read.', { type: 'error' });
      setEntry(null);
    }
    await refetch();
  }, [dataProvider, id, notify, refetch]);

  useEffect(() => {
    void takeNext();
  }, [takeNext]);

  if (error) return <Alert severity="error">This call list could not be read: {error.message}</Alert>;
  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 }, maxWidth: 720 }}>
      <Title title={list?.name ?? 'Call list'} />
      <div>
        <Link component={RouterLink} to="/call-lists" variant="body2">
          All call lists
        </Link>
      </div>
      {list && <CallListProgressBar list={list} />}
      {entry === undefined && <CircularProgress aria-label="Finding the next person" />}
      {entry === null && list && <Finished list={list} />}
      {entry && list && (
        <PersonToCall
          key={entry.id}
          list={list}
          entry={entry}
          onDone={async (message) => {
            notify(message, { type: 'info' });
            await queryClient.invalidateQueries({ queryKey: ['conversations'] });
            await takeNext();
          }}
        />
      )}
    </Stack>
  );
}

const personName = (record: Record<string, unknown> | undefined) =>
  record
    ? String(record.name ?? [record.first_name, record.last_name].filter(Boolean).join(' ')) || 'No name'
    : 'Loading…';

function PersonToCall({
  list,
  entry,
  onDone,
}: {
  list: CallList;
  entry: CallListEntry;
  onDone: (message: string) => Promise<void>;
}) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const resource = `${entry.person_type}s`;
  const { data: person } = useGetOne(resource, { id: entry.person_id });
  const outcomes = useListInOrder('conversation-outcomes');
  const [notes, setNotes] = useState('');
  const [busy, setBusy] = useState(false);
  const name = personName(person);

  const send = async (action: string, data: Record<string, unknown> | undefined, done: string) => {
    setBusy(true);
    try {
      await dataProvider.action('call-lists', { id: list.id, action: `entries/${entry.id}/${action}`, data });
      await onDone(done);
    } catch (failure) {
      notify(failure instanceof Error ? failure.message : 'That did not work.', { type: 'error' });
      // Their claim ran out or someone else called them: go on with the next person.
      if (failure instanceof ApiError && failure.status === 422) await onDone('Taking the next person.');
      setBusy(false);
    }
  };

  return (
    <Stack spacing={2}>
      <Card variant="outlined" component="section" aria-label={`Calling ${name}`}>
        <CardContent>
          <Stack spacing={1}>
            <Typography variant="overline" color="text.secondary">
              Now calling
            </Typography>
            <Typography variant="h5" component="h2">
              <Link component={RouterLink} to={`/${resource}/${entry.person_id}/show`}>
                {name}
              </Link>
            </Typography>
            {person?.phone ? (
              <Box>
                <Button variant="contained" size="large" startIcon={<CallIcon />} href={`tel:${person.phone}`}>
                  {person.phone}
                </Button>
              </Box>
            ) : (
              person && <Typography color="text.secondary">No phone number on file.</Typography>
            )}
            {person?.email && <Typography variant="body2">{person.email}</Typography>}
          </Stack>
        </CardContent>
      </Card>
      {list.script && (
        <Card variant="outlined" component="section" aria-label="Script">
          <CardContent>
            <Typography variant="subtitle2" component="h2" gutterBottom>
              Script
            </Typography>
            <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{list.script}</Typography>
          </CardContent>
        </Card>
      )}
      <LastConversations entry={entry} />
      <Stack spacing={1.5} component="section" aria-label="How the call went">
        <TextField
          label="Notes"
          value={notes}
          onChange={(event) => setNotes(event.target.value)}
          multiline
          minRows={2}
          fullWidth
        />
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(3, 1fr)' }, gap: 1 }}>
          {outcomes.map((outcome) => (
            <Button
              key={String(outcome.slug)}
              variant="outlined"
              disabled={busy}
              onClick={() =>
                send(
                  'conversation',
                  { outcome: outcome.slug, notes: notes.trim() || null },
                  `${name}: ${outcome.name}. Next person.`,
                )
              }
              sx={{ minHeight: 48 }}
            >
              {String(outcome.name)}
            </Button>
          ))}
        </Box>
        <Box>
          <Button
            startIcon={<SkipNextIcon />}
            disabled={busy}
            onClick={() => send('skip', undefined, `${name} is back at the end of the list.`)}
          >
            Skip
          </Button>
        </Box>
      </Stack>
    </Stack>
  );
}

function LastConversations({ entry }: { entry: CallListEntry }) {
  const { data, isPending } = usePersonTimeline({ type: entry.person_type, id: entry.person_id });
  const last = (data ?? []).filter((item) => item.kind === 'conversation').slice(0, LAST_CONVERSATIONS);
  return (
    <Box component="section" aria-label="Last conversations">
      <Typography variant="subtitle2" component="h2">
        Last conversations
      </Typography>
      {!isPending && !last.length && <Typography color="text.secondary">None yet: this is the first.</Typography>}
      <TimelineEntries entries={last} />
    </Box>
  );
}

function Finished({ list }: { list: CallList }) {
  const outcomes = useListInOrder('conversation-outcomes');
  // In the administrator's order of outcomes, then any no longer on the list.
  const order = (slug: string) => {
    const at = outcomes.findIndex((outcome) => outcome.slug === slug);
    return at === -1 ? outcomes.length : at;
  };
  const counts = Object.entries(list.progress.outcomes).sort(([a], [b]) => order(a) - order(b));
  return (
    <Alert severity="success" role="status">
      <Typography sx={{ fontWeight: 600 }}>
        {list.progress.left
          ? 'Everyone else on this list is being called now.'
          : 'Everyone on this list has been called.'}
      </Typography>
      {counts.length > 0 && (
        <Typography variant="body2">
          {counts
            .map(
              ([slug, count]) =>
                `${outcomes.find((outcome) => outcome.slug === slug)?.name ?? (slug === 'none' ? 'No outcome' : slug)}: ${count.toLocaleString('en-US')}`,
            )
            .join(' · ')}
        </Typography>
      )}
    </Alert>
  );
}
