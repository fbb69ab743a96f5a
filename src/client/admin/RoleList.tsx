/** Roles (`/roles`): name, slug, how many permissions, incognito; bulk delete. */
import Chip from '@mui/material/Chip';
import { CreateButton, DataTable, List, Pagination, SearchInput, Title, TopToolbar } from 'react-admin';
import { canOnEntity } from '../../common/permissions';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { useUser } from '../records/hooks';
import { BulkDeleteRecordsButton } from '../records/BulkDeleteRecordsButton';
import type { RecordSchema } from '../records/schema';

const ROLE_SCHEMA = { type: 'role', resource: 'roles', name_singular: 'Role', name_plural: 'Roles' } as RecordSchema;

export default function RoleList() {
  const user = useUser();
  useDocumentTitle('Roles');
  return (
    <List
      resource="roles"
      title={false}
      empty={false}
      filters={[<SearchInput source="q" alwaysOn key="q" />]}
      perPage={25}
      pagination={<Pagination rowsPerPageOptions={[10, 25, 50]} />}
      actions={<TopToolbar>{canOnEntity(user, 'role', 'create') && <CreateButton />}</TopToolbar>}
      exporter={false}
    >
      <Title title="Roles" />
      <DataTable rowClick="edit" bulkActionButtons={canOnEntity(user, 'role', 'delete') ? <BulkDeleteRecordsButton schema={ROLE_SCHEMA} /> : false}>
        <DataTable.Col source="name" label="Role" />
        <DataTable.Col source="slug" label="Slug" />
        <DataTable.Col label="Permissions" disableSort render={(role: any) => (role.permissions ?? []).length} />
        <DataTable.Col source="incognito" label="Incognito" render={(role: any) => (role.incognito ? <Chip size="small" label="Incognito" /> : '')} />
      </DataTable>
    </List>
  );
}
