/**
 * Notifications (`/notifications`): one's own, newest first, as the list grid (a card list on a phone); open one
 * (it is marked read and its link followed), dismiss one. The unread count in the sidebar follows.
 */

import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { List, NullableBooleanInput, SearchInput, SimpleList, Title, TopToolbar, useRecordContext } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { formatDateTime } from '../i18n/dates';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import ListGrid from '../records/grid/ListGrid';
import { ResetColumnsButton } from '../records/grid/ResetColumnsButton';
import { recordCell } from '../records/grid/recordCell';
import { SmallScreenPagination, useSmallScreen } from '../records/grid/smallScreen';
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
          <Box
            component="span"
            aria-label="unread"
            sx={{ display: 'inline-block', width: 8, height: 8, borderRadius: '50%', bgcolor: 'secondary.main', mr: 1 }}
          />
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
            if (/^\/(?!\/)/.test(notification.link)) await navigate(notification.link);
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

const COLUMNS: GridColDef[] = [
  {
    field: 'title',
    headerName: 'Notification',
    sortable: false,
    filterable: false,
    minWidth: 280,
    flex: 3,
    renderCell: recordCell(Message),
  },
  {
    field: 'created_at',
    headerName: 'When',
    filterable: false,
    minWidth: 200,
    valueGetter: (value) => (value ? formatDateTime(String(value)) : ''),
  },
  {
    field: 'actions',
    headerName: 'Actions',
    sortable: false,
    filterable: false,
    minWidth: 180,
    renderCell: recordCell(Actions),
  },
];
const DEFAULTS = COLUMNS.map((column) => column.field);

function NotificationListBody() {
  if (!useSmallScreen())
    return (
      <ListGrid
        resource="notifications"
        columns={COLUMNS}
        defaults={DEFAULTS}
        opens={false}
        autoRowHeight
        label="Notifications"
      />
    );
  return (
    <SimpleList
      primaryText={() => <Message />}
      tertiaryText={(notification) => formatDateTime(notification.created_at)}
      secondaryText={() => <Actions />}
      linkType={false}
    />
  );
}

export default function NotificationList() {
  useDocumentTitle('Notifications');
  return (
    <List
      resource="notifications"
      title={false}
      filters={[
        <SearchInput source="q" alwaysOn key="q" />,
        <NullableBooleanInput
          source="dismissed_at_null"
          label="Show"
          trueLabel="Not dismissed"
          falseLabel="Dismissed"
          nullLabel="All"
          alwaysOn
          key="dismissed"
        />,
      ]}
      filterDefaultValues={{ dismissed_at_null: true }}
      sort={{ field: 'created_at', order: 'DESC' }}
      perPage={25}
      pagination={<SmallScreenPagination />}
      actions={
        <TopToolbar>
          <ResetColumnsButton resource="notifications" />
        </TopToolbar>
      }
      sx={{ '& .RaList-main': { minWidth: 0 } }}
      exporter={false}
      empty={false}
    >
      <Title title="Notifications" />
      <NotificationListBody />
    </List>
  );
}
