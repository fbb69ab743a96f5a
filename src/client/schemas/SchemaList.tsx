/** The record types (`/schemas`): their names, how many fields, built in or created here. */
import Chip from '@mui/material/Chip';
import { CreateButton, DataTable, List, Pagination, SearchInput, Title, TopToolbar } from 'react-admin';
import { titleCase } from '../i18n/labels';
import { useDocumentTitle } from '../layout/useDocumentTitle';

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
      pagination={<Pagination rowsPerPageOptions={[25, 50, 100]} />}
      actions={<TopToolbar><CreateButton label="New record type" /></TopToolbar>}
    >
      <Title title="Schemas" />
      <DataTable rowClick="show" bulkActionButtons={false}>
        <DataTable.Col source="name_plural" label="Record type" render={(record: any) => <strong>{titleCase(record.name_plural)}</strong>} />
        <DataTable.Col source="name_singular" label="One record" />
        <DataTable.Col source="type" label="Type" />
        <DataTable.Col label="Fields" disableSort render={(record: any) => (record.fields ?? []).length} />
        <DataTable.Col label="Rules" disableSort render={(record: any) => (record.actions ?? []).length} />
        <DataTable.Col
          label="Origin"
          disableSort
          render={(record: any) => <Chip size="small" variant="outlined" label={record.built_in ? 'Built in' : 'Created here'} color={record.built_in ? 'default' : 'primary'} />}
        />
      </DataTable>
    </List>
  );
}
