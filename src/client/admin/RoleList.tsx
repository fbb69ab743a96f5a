/** Roles (`/roles`): name, slug, how many permissions, incognito as a grid; search, bulk delete; a row opens its form. */
import Chip from '@mui/material/Chip';
import type { GridColDef } from '@mui/x-data-grid';
import { CreateButton, List, SearchInput, SimpleList, Title, TopToolbar, useCanAccess } from 'react-admin';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { BulkDeleteRecordsButton } from '../records/BulkDeleteRecordsButton';
import ListGrid from '../records/grid/ListGrid';
import { ResetColumnsButton } from '../records/grid/ResetColumnsButton';
import { SmallScreenPagination, useSmallScreen } from '../records/grid/smallScreen';
import type { RecordSchema } from '../records/schema';

const ROLE_SCHEMA = { type: 'role', resource: 'roles', name_singular: 'Role', name_plural: 'Roles' } as RecordSchema;

const COLUMNS = (
  [
    { field: 'name', headerName: 'Role', minWidth: 160, flex: 1 },
    { field: 'slug', headerName: 'Slug', minWidth: 120, flex: 1 },
    {
      field: 'permissions',
      headerName: 'Permissions',
      type: 'number',
      sortable: false,
      minWidth: 120,
      valueGetter: (value: unknown) => (Array.isArray(value) ? value.length : 0),
    },
    {
      field: 'incognito',
      headerName: 'Incognito',
      minWidth: 120,
      renderCell: ({ row }) => (row.incognito ? <Chip size="small" label="Incognito" /> : ''),
    },
  ] satisfies GridColDef[]
).map((column): GridColDef => ({ filterable: false, ...column }));
const DEFAULTS = COLUMNS.map((column) => column.field);

function RoleListBody({ canDelete }: { canDelete: boolean }) {
  if (useSmallScreen())
    return <SimpleList primaryText={(role) => role.name} secondaryText={(role) => role.slug} linkType="edit" />;
  return (
    <ListGrid
      resource="roles"
      columns={COLUMNS}
      defaults={DEFAULTS}
      opens="edit"
      bulkActionButtons={canDelete ? <BulkDeleteRecordsButton schema={ROLE_SCHEMA} /> : undefined}
    />
  );
}

export default function RoleList() {
  const { canAccess: canDelete = false } = useCanAccess({ resource: 'roles', action: 'delete' });
  useDocumentTitle('Roles');
  return (
    <List
      resource="roles"
      title={false}
      empty={false}
      filters={[<SearchInput source="q" alwaysOn key="q" />]}
      perPage={25}
      pagination={<SmallScreenPagination />}
      actions={
        <TopToolbar>
          <ResetColumnsButton resource="roles" />
          <CreateButton />
        </TopToolbar>
      }
      exporter={false}
      sx={{ '& .RaList-main': { minWidth: 0 } }}
    >
      <Title title="Roles" />
      <RoleListBody canDelete={canDelete} />
    </List>
  );
}
