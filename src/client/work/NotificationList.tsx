/**
 * Notifications (`/notifications`): one's own, newest first; open one (it is marked read and its link followed),
 * dismiss one. The unread count in the sidebar follows.
 */
import { useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { DataTable, List, NullableBooleanInput, Pagination, SearchInput, Title, useRecordContext } from 'react-admin';
import { formatDateTime } from '../i18n/dates';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { useRecordMutations } from '../records/mutations';
import { refreshCounts } from './shared';

function Message() {
  const notification = useRecordContext();
  if (!notification) return null;
  const unread = !notification.read_at && !notification.dismissed_at;
  return (
    <Box>
      <Typography variant="body2" sx={{ fontWeight: unread ? 700 : 400 }}>
        {unread && (
          <Box component="span" aria-label="unread" sx={{ display: 'inline-block', width: 8, height: 8, borderRadius: '50%', bgcolor: 'secondary.main', mr: 1 }} />
        )}
        {notification.title}
      </Typography>
      {notification.body && (
        <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-wrap' }}>
          {notification.body}
        </Typography>
      )}
    </Box>
  );
}

function Actions() {
  const notification = useRecordContext();
  const { action, update } = useRecordMutations('notifications');
  const navigate = useNavigate();
  if (!notification) return null;
  return (
    <Stack direction="row" spacing={1} onClick={(event) => event.stopPropagation()}>
      {notification.link && (
        <Button
          size="small"
          onClick={async () => {
            if (!notification.read_at) {
              await update(notification.id, { read_at: new Date().toISOString() }, notification, '');
              refreshCounts();
            }
            if (/^\/(?!\/)/.test(notification.link)) navigate(notification.link);
            else window.location.assign(notification.link);
          }}
        >
          Open
        </Button>
      )}
      {!notification.dismissed_at && (
        <Button
          size="small"
          onClick={async () => {
            await action(notification.id, 'dismiss', undefined, 'Notification dismissed.');
            refreshCounts();
          }}
        >
          Dismiss
        </Button>
      )}
    </Stack>
  );
}

export default function NotificationList() {
  useDocumentTitle('Notifications');
  return (
    <List
      resource="notifications"
      title={false}
      filters={[<SearchInput source="q" alwaysOn key="q" />, <NullableBooleanInput source="dismissed_at_null" label="Show" trueLabel="Not dismissed" falseLabel="Dismissed" nullLabel="All" alwaysOn key="dismissed" />]}
      filterDefaultValues={{ dismissed_at_null: true }}
      sort={{ field: 'created_at', order: 'DESC' }}
      perPage={25}
      pagination={<Pagination rowsPerPageOptions={[10, 25, 50, 100]} />}
      exporter={false}
      empty={false}
    >
      <Title title="Notifications" />
      <DataTable bulkActionButtons={false} rowClick={false}>
        <DataTable.Col source="title" label="Notification" disableSort>
          <Message />
        </DataTable.Col>
        <DataTable.Col source="created_at" label="When" render={(notification: any) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(notification.created_at)}</span>} />
        <DataTable.Col label="" disableSort>
          <Actions />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}
