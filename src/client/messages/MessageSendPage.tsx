/** One text or email sent to a list (`/messages/:id`): what was written, where each person's copy is, and why. */
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Title, useGetMany, useGetOne, useNotify } from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { MESSAGE_STATUS_LABELS, type MessageSend, type MessageStatus } from '../../common/messages';
import { peopleCount } from '../callLists/types';
import { formatDateTime } from '../i18n/dates';
import { useMessagesApi } from './api';
import { SendCounts } from './SendCounts';

/** A North American number as people write it, "(555) 010-0001"; others as kept. */
const phoneForReading = (phone: string) => {
  const match = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(phone);
  return match ? `(${match[1]}) ${match[2]}-${match[3]}` : phone;
};

interface Person {
  id: number;
  first_name?: string | null;
  last_name?: string | null;
}

export default function MessageSendPage() {
  const id = Number(useParams().id);
  const api = useMessagesApi();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<MessageStatus | null>(null);
  const { data: send, error, refetch } = useGetOne<MessageSend>('message-sends', { id });
  const copies = useQuery({
    queryKey: ['message-sends', 'copies', id, status],
    queryFn: () => api.copies(id, status),
    enabled: Boolean(send),
  });
  const personIds = [...new Set((copies.data ?? []).map((copy) => copy.person_id).filter((x): x is number => !!x))];
  const { data: people } = useGetMany<Person>(
    `${send?.person_type ?? 'contact'}s`,
    { ids: personIds },
    { enabled: Boolean(send) },
  );
  const nameOf = (personId: number | null) => {
    const person = people?.find((candidate) => candidate.id === personId);
    return person ? [person.first_name, person.last_name].filter(Boolean).join(' ') || `#${person.id}` : '';
  };
  const sendUnsent = async () => {
    try {
      notify(await api.sendUnsent(id), { type: 'info' });
      await refetch();
      await queryClient.invalidateQueries({ queryKey: ['message-sends', 'copies', id] });
    } catch (failure) {
      notify(failure instanceof Error ? failure.message : 'They could not be sent.', { type: 'error' });
    }
  };

  if (error)
    return (
      <Typography color="error" sx={{ p: 2 }}>
        This message could not be read: {error.message}
      </Typography>
    );
  if (!send) return null;
  const heading = send.subject ?? `Text to ${peopleCount(send.total, send.person_type)}`;
  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 }, maxWidth: 1000 }}>
      <Title title={heading} />
      <div>
        <Button component={RouterLink} to="/messages" startIcon={<ArrowBackIcon />} size="small">
          Texts and emails
        </Button>
      </div>
      <Typography variant="h5" component="h1">
        {heading}
      </Typography>
      <Typography color="text.secondary">
        {send.subject ? `Email to ${peopleCount(send.total, send.person_type)} · ` : ''}
        {formatDateTime(send.created_at)}
        {send.created_by_name ? ` · ${send.created_by_name}` : ''}
      </Typography>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{send.body}</Typography>
      </Paper>
      <SendCounts send={send} picked={status} onPick={setStatus} />
      {(send.counts.not_sent ?? 0) > 0 && (
        <Alert
          severity="warning"
          action={
            <Button color="inherit" size="small" onClick={() => void sendUnsent()}>
              Send them now
            </Button>
          }
        >
          {send.counts.not_sent!.toLocaleString('en-US')} were kept, not sent: no{' '}
          {send.channel === 'sms' ? 'SMS provider' : 'mail server'} was configured. Once one is, send them.
        </Alert>
      )}
      <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label="Each person's copy">
          <TableHead>
            <TableRow>
              <TableCell>Person</TableCell>
              <TableCell>{send.channel === 'sms' ? 'Phone' : 'Email'}</TableCell>
              <TableCell>Status</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(copies.data ?? []).map((copy) => (
              <TableRow key={copy.id}>
                <TableCell>
                  {copy.person_id ? (
                    <RouterLink to={`/${send.person_type}s/${copy.person_id}/show`}>
                      {nameOf(copy.person_id)}
                    </RouterLink>
                  ) : null}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {(send.channel === 'sms' ? phoneForReading(copy.address) : copy.address) || '—'}
                </TableCell>
                <TableCell>
                  {MESSAGE_STATUS_LABELS[copy.status]}
                  {copy.detail && copy.status !== 'not_sent' ? (
                    <Typography variant="body2" color="text.secondary">
                      {copy.detail}
                    </Typography>
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Paper>
    </Stack>
  );
}
