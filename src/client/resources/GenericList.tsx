/**
 * The list of a resource without a screen of its own (reference lists such as unions, trades and statuses): the
 * record grid of its schema when there is one, else a grid of the columns its first records have. Both are the one
 * list grid (server paging and sorting, the person's columns, a card list on a phone).
 */

import type { GridColDef } from '@mui/x-data-grid';
import { useMemo } from 'react';
import {
  CreateButton,
  List,
  SimpleList,
  Title,
  TopToolbar,
  useListContext,
  useResourceContext,
  useResourceDefinition,
} from 'react-admin';
import { useMainData } from '../app/hooks';
import { titleCase } from '../i18n/labels';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import ListGrid from '../records/grid/ListGrid';
import RecordGrid from '../records/grid/RecordGrid';
import { ResetColumnsButton } from '../records/grid/ResetColumnsButton';
import { SmallScreenPagination, useSmallScreen } from '../records/grid/smallScreen';
import { useVisibleDescriptors } from '../records/hooks';
import { asRecordSchema, type RecordSchema, recordLabel } from '../records/schema';
import { resourceForType } from './names';

const MAX_GUESSED_COLUMNS = 6;

/** A value of a record without a schema, as text. */
function display(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(display).filter(Boolean).join(', ');
  if (typeof value === 'object') {
    const named = value as { name?: unknown; label?: unknown; title?: unknown };
    return String(named.name ?? named.label ?? named.title ?? '');
  }
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

/** The columns of a resource without a schema: the fields of its first records. */
function GuessedGrid({ resource }: { resource: string }) {
  const { data } = useListContext();
  const keys = useMemo(
    () =>
      [...new Set((data ?? []).slice(0, 5).flatMap((row) => Object.keys(row)))].slice(0, MAX_GUESSED_COLUMNS).join(','),
    [data],
  );
  const columns = useMemo(
    (): GridColDef[] =>
      keys
        .split(',')
        .filter(Boolean)
        .map((field) => ({
          field,
          headerName: titleCase(field.replace(/_/g, ' ')),
          minWidth: 120,
          flex: 1,
          filterable: false,
          valueGetter: (value: unknown) => display(value),
        })),
    [keys],
  );
  if (!columns.length) return null;
  return (
    <ListGrid
      resource={resource}
      columns={columns}
      defaults={columns.map((column) => column.field)}
      linkField={columns.find((column) => column.field === 'name')?.field}
    />
  );
}

function SchemaGrid({ schema }: { schema: RecordSchema }) {
  const descriptors = useVisibleDescriptors(schema);
  return <RecordGrid schema={schema} descriptors={descriptors} />;
}

function GenericListBody({ resource, schema }: { resource: string; schema: RecordSchema | undefined }) {
  if (useSmallScreen()) return <SimpleList primaryText={(record) => recordLabel(record)} linkType="show" />;
  return schema ? <SchemaGrid schema={schema} /> : <GuessedGrid resource={resource} />;
}

export default function GenericList() {
  const resource = useResourceContext() ?? '';
  const { schemas } = useMainData();
  const found = schemas.find((candidate) => resourceForType(candidate.type) === resource);
  const schema = useMemo(() => (found ? asRecordSchema(found) : undefined), [found]);
  const { hasCreate } = useResourceDefinition({ resource });
  const title = schema ? titleCase(schema.name_plural || resource) : titleCase(resource.replace(/-/g, ' '));
  useDocumentTitle(title);
  return (
    <List
      resource={resource}
      title={false}
      empty={false}
      perPage={25}
      pagination={<SmallScreenPagination />}
      actions={
        <TopToolbar>
          <ResetColumnsButton resource={resource} />
          {hasCreate && <CreateButton />}
        </TopToolbar>
      }
      exporter={false}
      sx={{ '& .RaList-main': { minWidth: 0 } }}
    >
      <Title title={title} />
      <GenericListBody resource={resource} schema={schema} />
    </List>
  );
}
