/** The call lists (`/call-lists`): each with its progress and a button to start or go on calling. */
import PhoneInTalkIcon from '@mui/icons-material/PhoneInTalk';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Title, useGetList } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { formatDate } from '../i18n/dates';
import { CallListProgressBar } from './CallListProgressBar';
import type { CallList } from './types';

export default function CallListsPage() {
  const { data, isPending, error } = useGetList<CallList>('call-lists', {
    pagination: { page: 1, perPage: 200 },
    sort: { field: 'id', order: 'DESC' },
  });
  const lists = data ?? [];
  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 }, maxWidth: 900 }}>
      <Title title="Call lists" />
      <Typography color="text.secondary">
        To make one, open Contacts, Recruits or Members, filter the list to the people to call, and choose "Call list".
      </Typography>
      {error && <Typography color="error">The call lists could not be read: {error.message}</Typography>}
      {!isPending && !error && !lists.length && <Typography>No call lists yet.</Typography>}
      {lists.map((list) => (
        <Card key={list.id} variant="outlined" component="section" aria-labelledby={`call-list-${list.id}`}>
          <CardContent>
            <Stack spacing={1.5}>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between' }}>
                <div>
                  <Typography variant="h6" component="h2" id={`call-list-${list.id}`}>
                    {list.name}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    Made {formatDate(list.created_at)}
                    {list.created_by_name ? ` by ${list.created_by_name}` : ''}
                  </Typography>
                </div>
                <div>
                  <Button
                    component={RouterLink}
                    to={`/call-lists/${list.id}`}
                    variant={list.progress.left ? 'contained' : 'outlined'}
                    startIcon={<PhoneInTalkIcon />}
                  >
                    {list.progress.left === 0 ? 'See results' : list.progress.done ? 'Go on calling' : 'Start calling'}
                  </Button>
                </div>
              </Stack>
              <CallListProgressBar list={list} />
            </Stack>
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}
