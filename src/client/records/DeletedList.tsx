/**
 * Deleted records of a type (`/{resource}/deleted`, the list with `only_trashed=1`), each with a Restore button
 * that answers with the server's message ('Site restored successfully.').
 */
import { useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Button from '@mui/material/Button';
import RestoreIcon from '@mui/icons-material/RestoreFromTrashOutlined';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { DataTable, List, Pagination, SearchInput, Title, TopToolbar, useCanAccess, useListContext, useRecordContext } from 'react-admin';
import { titleCase } from '../i18n/labels';
import { formatDateTime } from '../i18n/dates';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { defaultColumns, FieldDisplay } from './fieldTypes';
import { useRecordMutations } from './mutations';
import { useVisibleDescriptors } from './hooks';
import { PER_PAGE_CHOICES } from './grid/gridQuery';
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

export default function DeletedList({ resource: resourceProp }: { resource?: string }) {
  const { resource, schema, featureOff } = useRecordScreen(resourceProp);
  const descriptors = useVisibleDescriptors(schema);
  const title = schema ? `Deleted ${titleCase(schema.name_plural)}` : 'Deleted records';
  useDocumentTitle(title);
  const columns = useMemo(() => new Set(defaultColumns(descriptors, 3)), [descriptors]);
  if (!schema) return <MissingSchema resource={resource} />;
  if (featureOff) return featureOff;
  const { canAccess: canRestore = false } = useCanAccess({ resource: schema.resource, action: 'restore' });
  return (
    <List
      resource={resource}
      title={false}
      storeKey={`${resource}.deleted`}
      queryOptions={{ meta: { query: { only_trashed: 1 } } }}
      filters={[<SearchInput source="q" alwaysOn key="q" />]}
      sort={{ field: 'deleted_at', order: 'DESC' }}
      perPage={25}
      pagination={<Pagination rowsPerPageOptions={PER_PAGE_CHOICES} />}
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
      <DataTable bulkActionButtons={canRestore ? <BulkRestoreButton schema={schema} /> : false} rowClick={false}>
        {descriptors
          .filter((descriptor) => columns.has(descriptor.slug))
          .map((descriptor) => (
            <DataTable.Col key={descriptor.slug} source={descriptor.slug} label={descriptor.label} disableSort={!descriptor.sortable}>
              <FieldDisplay descriptor={descriptor} variant="list" />
            </DataTable.Col>
          ))}
        <DataTable.Col source="deleted_at" label="Deleted" render={(record: any) => (record.deleted_at ? formatDateTime(record.deleted_at) : '')} />
        {canRestore && <DataTable.Col label="" render={() => <RestoreButton schema={schema} />} />}
      </DataTable>
    </List>
  );
}
