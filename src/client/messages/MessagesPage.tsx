/** The texts and emails sent to lists (`/messages`): each with how many went, wait, or could not go. */
import EmailIcon from '@mui/icons-material/EmailOutlined';
import SmsIcon from '@mui/icons-material/SmsOutlined';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Title, useGetList } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import type { MessageSend } from '../../common/messages';
import { peopleCount } from '../callLists/types';
import { formatDateTime } from '../i18n/dates';
import { SendCounts } from './SendCounts';

export default function MessagesPage() {
  const { data, isPending, error } = useGetList<MessageSend>('message-sends', {
    pagination: { page: 1, perPage: 200 },
    sort: { field: 'id', order: 'DESC' },
  });
  const sends = data ?? [];
  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 }, maxWidth: 900 }}>
      <Title title="Texts and emails" />
      <Typography color="text.secondary">
        To send one, open Contacts, Recruits or Members, filter the list to the people to reach, and choose "Text or
        email".
      </Typography>
      {error && <Typography color="error">The messages could not be read: {error.message}</Typography>}
      {!isPending && !error && !sends.length && <Typography>No texts or emails sent yet.</Typography>}
      {sends.map((send) => (
        <Card key={send.id} variant="outlined" component="section" aria-labelledby={`message-send-${send.id}`}>
          <CardActionArea component={RouterLink} to={`/messages/${send.id}`}>
            <CardContent>
              <Stack spacing={1}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  {send.channel === 'sms' ? <SmsIcon color="action" /> : <EmailIcon color="action" />}
                  <Typography variant="h6" component="h2" id={`message-send-${send.id}`} noWrap sx={{ minWidth: 0 }}>
                    {send.subject ?? firstLine(send.body)}
                  </Typography>
                </Stack>
                <Typography variant="body2" color="text.secondary">
                  {send.channel === 'sms' ? 'Text' : 'Email'} to {peopleCount(send.total, send.person_type)} ·{' '}
                  {formatDateTime(send.created_at)}
                  {send.created_by_name ? ` · ${send.created_by_name}` : ''}
                </Typography>
                <SendCounts send={send} />
              </Stack>
            </CardContent>
          </CardActionArea>
        </Card>
      ))}
    </Stack>
  );
}

const firstLine = (text: string) => {
  const line = text.split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
};
