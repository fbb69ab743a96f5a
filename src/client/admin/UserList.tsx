/** Users (`/users`): name, email, role, team, last sign-in as a grid; search, filter by role and team, bulk delete. */

import type { GridColDef } from '@mui/x-data-grid';
import { useMemo } from 'react';
import {
  AutocompleteInput,
  CreateButton,
  FilterButton,
  List,
  RecordContextProvider,
  ReferenceField,
  ReferenceInput,
  SearchInput,
  SelectInput,
  SimpleList,
  Title,
  TopToolbar,
  useCanAccess,
  WithRecord,
} from 'react-admin';
import { formatDateTime } from '../i18n/dates';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { BulkDeleteRecordsButton } from '../records/BulkDeleteRecordsButton';
import ListGrid from '../records/grid/ListGrid';
import { ResetColumnsButton } from '../records/grid/ResetColumnsButton';
import { SmallScreenPagination, useSmallScreen } from '../records/grid/smallScreen';
import { type RecordSchema, recordLabel } from '../records/schema';
import { BackupStatusLine } from './BackupStatusLine';

const USER_SCHEMA = { type: 'user', resource: 'users', name_singular: 'User', name_plural: 'Users' } as RecordSchema;

const column = (field: string, headerName: string, extra: Partial<GridColDef> = {}): GridColDef => ({
  field,
  headerName,
  minWidth: 120,
  flex: 1,
  filterable: false,
  ...extra,
});

const COLUMNS: GridColDef[] = [
  column('last_name', 'Name', { valueGetter: (_value, user) => user.name }),
  column('email', 'Email'),
  column('role_id', 'Role', { valueGetter: (_value, user) => user.role?.name ?? '' }),
  column('team_id', 'Team', {
    renderCell: ({ row }) => (
      <RecordContextProvider value={row}>
        <ReferenceField source="team_id" reference="teams" link={false} emptyText="">
          <WithRecord render={(team) => <span>{recordLabel(team)}</span>} />
        </ReferenceField>
      </RecordContextProvider>
    ),
  }),
  column('last_login_at', 'Last sign-in', { valueGetter: (value) => (value ? formatDateTime(String(value)) : '—') }),
];
const DEFAULTS = COLUMNS.map((entry) => entry.field);

function UserListBody({ canDelete }: { canDelete: boolean }) {
  if (useSmallScreen())
    return (
      <SimpleList
        primaryText={(user) => user.name}
        secondaryText={(user) => user.email}
        tertiaryText={(user) => user.role?.name ?? ''}
        linkType="show"
      />
    );
  return (
    <ListGrid
      resource="users"
      columns={COLUMNS}
      defaults={DEFAULTS}
      bulkActionButtons={canDelete ? <BulkDeleteRecordsButton schema={USER_SCHEMA} /> : undefined}
    />
  );
}

export default function UserList() {
  const { canAccess: canDelete = false } = useCanAccess({ resource: 'users', action: 'delete' });
  useDocumentTitle('Users');
  const filters = useMemo(
    () => [
      <SearchInput source="q" alwaysOn key="q" />,
      <ReferenceInput source="role_id" reference="roles" key="role" perPage={100}>
        <SelectInput label="Role" optionText="name" />
      </ReferenceInput>,
      <ReferenceInput source="team_ids" reference="teams" key="team" perPage={25}>
        <AutocompleteInput label="Team" optionText={recordLabel} filterToQuery={(q: string) => ({ q })} />
      </ReferenceInput>,
    ],
    [],
  );
  return (
    <List
      resource="users"
      title={false}
      empty={false}
      filters={filters}
      perPage={25}
      sort={{ field: 'last_name', order: 'ASC' }}
      pagination={<SmallScreenPagination />}
      actions={
        <TopToolbar>
          <FilterButton filters={filters} />
          <ResetColumnsButton resource="users" />
          <CreateButton />
        </TopToolbar>
      }
      exporter={false}
      sx={{ '& .RaList-main': { minWidth: 0 } }}
    >
      <Title title="Users" />
      <BackupStatusLine />
      <UserListBody canDelete={canDelete} />
    </List>
  );
}
