/** Roles (`/roles`): name, slug, how many permissions, incognito; bulk delete. */
import Chip from '@mui/material/Chip';
import { CreateButton, DataTable, List, Pagination, SearchInput, Title, TopToolbar, useCanAccess } from 'react-admin';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { BulkDeleteRecordsButton } from '../records/BulkDeleteRecordsButton';
import type { RecordSchema } from '../records/schema';

const ROLE_SCHEMA = { type: 'role', resource: 'roles', name_singular: 'Role', name_plural: 'Roles' } as RecordSchema;

export default function RoleList() {
  const { canAccess: canDelete } = useCanAccess({ resource: 'roles', action: 'delete' });
  useDocumentTitle('Roles');
  return (
    <List
      resource="roles"
      title={false}
      empty={false}
      filters={[<SearchInput source="q" alwaysOn key="q" />]}
      perPage={25}
      pagination={<Pagination rowsPerPageOptions={[10, 25, 50]} />}
      actions={<TopToolbar><CreateButton /></TopToolbar>}
      exporter={false}
    >
      <Title title="Roles" />
      <DataTable rowClick="edit" bulkActionButtons={canDelete ? <BulkDeleteRecordsButton schema={ROLE_SCHEMA} /> : false}>
        <DataTable.Col source="name" label="Role" />
        <DataTable.Col source="slug" label="Slug" />
        <DataTable.Col label="Permissions" disableSort render={(role: any) => (role.permissions ?? []).length} />
        <DataTable.Col source="incognito" label="Incognito" render={(role: any) => (role.incognito ? <Chip size="small" label="Incognito" /> : '')} />
      </DataTable>
    </List>
  );
}
