/** The record types (`/schemas`): their names, how many fields, built in or created here. */
import Chip from '@mui/material/Chip';
import type { GridColDef } from '@mui/x-data-grid';
import { CreateButton, List, SearchInput, SimpleList, Title, TopToolbar } from 'react-admin';
import { titleCase } from '../i18n/labels';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import ListGrid from '../records/grid/ListGrid';
import { SmallScreenPagination, useSmallScreen } from '../records/grid/smallScreen';

const count = (value: unknown) => (Array.isArray(value) ? value.length : 0);
const COLUMNS = (
  [
    {
      field: 'name_plural',
      headerName: 'Record type',
      minWidth: 160,
      flex: 1,
      renderCell: ({ row }) => <strong>{titleCase(row.name_plural)}</strong>,
    },
    { field: 'name_singular', headerName: 'One record', minWidth: 140, flex: 1 },
    { field: 'type', headerName: 'Type', minWidth: 120, flex: 1 },
    { field: 'fields', headerName: 'Fields', type: 'number', sortable: false, minWidth: 90, valueGetter: count },
    { field: 'actions', headerName: 'Rules', type: 'number', sortable: false, minWidth: 90, valueGetter: count },
    {
      field: 'built_in',
      headerName: 'Origin',
      sortable: false,
      minWidth: 130,
      renderCell: ({ row }) => (
        <Chip
          size="small"
          variant="outlined"
          label={row.built_in ? 'Built in' : 'Created here'}
          color={row.built_in ? 'default' : 'primary'}
        />
      ),
    },
  ] satisfies GridColDef[]
).map((column): GridColDef => ({ filterable: false, ...column }));
const DEFAULTS = COLUMNS.map((column) => column.field);

function SchemaListBody() {
  if (useSmallScreen())
    return (
      <SimpleList
        primaryText={(record) => titleCase(record.name_plural)}
        secondaryText={(record) => record.type}
        linkType="show"
      />
    );
  return <ListGrid resource="schemas" columns={COLUMNS} defaults={DEFAULTS} />;
}

export default function SchemaList() {
  useDocumentTitle('Schemas');
  return (
    <List
      resource="schemas"
      title={false}
      empty={false}
      filters={[<SearchInput source="q" alwaysOn key="q" />]}
      sort={{ field: 'position', order: 'ASC' }}
      perPage={50}
      pagination={<SmallScreenPagination />}
      actions={
        <TopToolbar>
          <CreateButton label="New record type" />
        </TopToolbar>
      }
    >
      <Title title="Schemas" />
      <SchemaListBody />
    </List>
  );
}
