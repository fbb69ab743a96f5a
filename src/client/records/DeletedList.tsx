/**
 * Deleted records of a type (`/{resource}/deleted`, the list with `only_trashed=1`), each with a Restore button
 * that answers with the server's message ('Site restored successfully.'), as a grid (read-only; a deleted record
 * opens nothing).
 */

import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import RestoreIcon from '@mui/icons-material/RestoreFromTrashOutlined';
import Button from '@mui/material/Button';
import type { GridColDef } from '@mui/x-data-grid';
import { useMemo, useState } from 'react';
import {
  List,
  RecordContextProvider,
  SearchInput,
  Title,
  TopToolbar,
  useCanAccess,
  useListContext,
  useRecordContext,
} from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { formatDateTime } from '../i18n/dates';
import { titleCase } from '../i18n/labels';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { defaultColumns, type FieldDescriptor } from './fieldTypes';
import { gridColumn } from './grid/columns';
import ListGrid from './grid/ListGrid';
import { useVisibleDescriptors } from './hooks';
import { useRecordMutations } from './mutations';
import type { RecordSchema } from './schema';
import { MissingSchema, useRecordScreen } from './ui';

function RestoreButton({ schema }: { schema: RecordSchema }) {
  const record = useRecordContext();
  const { restore } = useRecordMutations(schema.resource);
  const [busy, setBusy] = useState(false);
  if (!record) return null;
  return (
    <Button
      size="small"
      startIcon={<RestoreIcon />}
      disabled={busy}
      onClick={async (event) => {
        event.stopPropagation();
        setBusy(true);
        await restore(record.id, `${titleCase(schema.name_singular)} restored successfully.`);
        setBusy(false);
      }}
    >
      Restore
    </Button>
  );
}

function BulkRestoreButton({ schema }: { schema: RecordSchema }) {
  const { selectedIds, onUnselectItems } = useListContext();
  const { restore } = useRecordMutations(schema.resource);
  const [busy, setBusy] = useState(false);
  return (
    <Button
      size="small"
      startIcon={<RestoreIcon />}
      disabled={busy || !selectedIds.length}
      onClick={async () => {
        setBusy(true);
        for (const id of selectedIds) await restore(id, `${titleCase(schema.name_singular)} restored successfully.`);
        setBusy(false);
        onUnselectItems();
      }}
    >
      Restore
    </Button>
  );
}

function deletedColumns(descriptors: FieldDescriptor[], schema: RecordSchema, canRestore: boolean): GridColDef[] {
  const shown = new Set(defaultColumns(descriptors, 3));
  const columns: GridColDef[] = descriptors
    .filter((descriptor) => shown.has(descriptor.slug))
    .map((descriptor) => gridColumn(descriptor, { linkField: undefined, canEdit: false }));
  columns.push({
    field: 'deleted_at',
    headerName: 'Deleted',
    minWidth: 160,
    flex: 1,
    filterable: false,
    valueGetter: (value) => (value ? formatDateTime(String(value)) : ''),
  });
  if (canRestore) {
    columns.push({
      field: 'restore',
      headerName: 'Restore',
      sortable: false,
      filterable: false,
      minWidth: 130,
      renderCell: ({ row }) => (
        <RecordContextProvider value={row}>
          <RestoreButton schema={schema} />
        </RecordContextProvider>
      ),
    });
  }
  return columns;
}

export default function DeletedList({ resource: resourceProp }: { resource?: string }) {
  const { resource, schema, featureOff } = useRecordScreen(resourceProp);
  const descriptors = useVisibleDescriptors(schema);
  const title = schema ? `Deleted ${titleCase(schema.name_plural)}` : 'Deleted records';
  useDocumentTitle(title);
  const { canAccess: canRestore = false } = useCanAccess({ resource, action: 'restore' });
  const columns = useMemo(
    () => (schema ? deletedColumns(descriptors, schema, canRestore) : []),
    [descriptors, schema, canRestore],
  );
  if (!schema) return <MissingSchema resource={resource} />;
  if (featureOff) return featureOff;
  return (
    <List
      resource={resource}
      title={false}
      storeKey={`${resource}.deleted`}
      queryOptions={{ meta: { query: { only_trashed: 1 } } }}
      filters={[<SearchInput source="q" alwaysOn key="q" />]}
      sort={{ field: 'deleted_at', order: 'DESC' }}
      perPage={25}
      pagination={false}
      sx={{ '& .RaList-main': { minWidth: 0 } }}
      actions={
        <TopToolbar>
          <Button component={RouterLink} to={`/${resource}`} size="small" startIcon={<ArrowBackIcon />}>
            {titleCase(schema.name_plural)}
          </Button>
        </TopToolbar>
      }
      empty={false}
    >
      <Title title={title} />
      <ListGrid
        resource={resource}
        listKey={`${resource}.deleted`}
        columns={columns}
        defaults={columns.map((column) => column.field)}
        opens={false}
        bulkActionButtons={canRestore ? <BulkRestoreButton schema={schema} /> : undefined}
      />
    </List>
  );
}
