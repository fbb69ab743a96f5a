/** Users (`/users`): name, email, role, team, last sign-in; search, filter by role and team, bulk delete. */
import { CreateButton, DataTable, List, Pagination, ReferenceField, ReferenceInput, SearchInput, SelectInput, AutocompleteInput, Title, TopToolbar, WithRecord, useCanAccess } from 'react-admin';
import { formatDateTime } from '../i18n/dates';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { BulkDeleteRecordsButton } from '../records/BulkDeleteRecordsButton';
import { recordLabel, type RecordSchema } from '../records/schema';

const USER_SCHEMA = { type: 'user', resource: 'users', name_singular: 'User', name_plural: 'Users' } as RecordSchema;

export default function UserList() {
  const { canAccess: canDelete } = useCanAccess({ resource: 'users', action: 'delete' });
  useDocumentTitle('Users');
  const filters = [
    <SearchInput source="q" alwaysOn key="q" />,
    <ReferenceInput source="role_id" reference="roles" key="role" perPage={100}>
      <SelectInput label="Role" optionText="name" />
    </ReferenceInput>,
    <ReferenceInput source="team_ids" reference="teams" key="team" perPage={25}>
      <AutocompleteInput label="Team" optionText={recordLabel} filterToQuery={(q: string) => ({ q })} />
    </ReferenceInput>,
  ];
  return (
    <List
      resource="users"
      title={false}
      empty={false}
      filters={filters}
      perPage={25}
      sort={{ field: 'last_name', order: 'ASC' }}
      pagination={<Pagination rowsPerPageOptions={[10, 25, 50, 100]} />}
      actions={<TopToolbar><CreateButton /></TopToolbar>}
      exporter={false}
    >
      <Title title="Users" />
      <DataTable rowClick="show" bulkActionButtons={canDelete ? <BulkDeleteRecordsButton schema={USER_SCHEMA} /> : false}>
        <DataTable.Col source="last_name" label="Name" render={(user: any) => user.name} />
        <DataTable.Col source="email" label="Email" />
        <DataTable.Col source="role_id" label="Role" render={(user: any) => user.role?.name ?? ''} />
        <DataTable.Col source="team_id" label="Team">
          <ReferenceField source="team_id" reference="teams" link={false} emptyText="">
            <WithRecord render={(team) => <span>{recordLabel(team)}</span>} />
          </ReferenceField>
        </DataTable.Col>
        <DataTable.Col source="last_login_at" label="Last sign-in" render={(user: any) => (user.last_login_at ? formatDateTime(user.last_login_at) : '—')} />
      </DataTable>
    </List>
  );
}
