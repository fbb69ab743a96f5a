/**
 * A record list as a data grid (ListGrid): its columns come from the field-type table (columns.tsx), its filter
 * model is the list's filter values (gridQuery.ts), and cells edit in place through the one write path
 * (useCellEditing.tsx).
 */

import { type GridFilterModel, useGridApiRef } from '@mui/x-data-grid';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { useCanAccessResources, useListContext } from 'react-admin';
import type { FieldDescriptor } from '../fieldTypes';
import { defaultColumns } from '../fieldTypes';
import type { RecordSchema } from '../schema';
import { filterableColumns, gridColumn } from './columns';
import { filterModelToFilterValues, filterValuesToFilterModel, type GridFilterModelLike } from './gridQuery';
import ListGrid from './ListGrid';
import { useCellEditing } from './useCellEditing';
import { useRelationChoices } from './useRelationChoices';

export interface RecordGridProps {
  schema: RecordSchema;
  descriptors: FieldDescriptor[];
  bulkActionButtons?: ReactNode;
  /** Whose column choices these are, when not the resource's main list (a record's related list). */
  listKey?: string;
  pageSizeOptions?: number[];
  label?: string;
}

/**
 * The grid's filter model, kept while the person edits it in the panel (an item without a value yet asks the API
 * nothing) and set again from the list's filter values when they change elsewhere (filter bar, URL).
 */
function useFilterModel(columns: ReturnType<typeof filterableColumns>) {
  const { filterValues, setFilters, displayedFilters } = useListContext();
  const [model, setModel] = useState<GridFilterModelLike>(() => filterValuesToFilterModel(filterValues, columns));
  useEffect(() => {
    setModel((current) => {
      const mapped = filterModelToFilterValues(current, filterValues, columns);
      return JSON.stringify(mapped) === JSON.stringify(filterValues ?? {})
        ? current
        : filterValuesToFilterModel(filterValues, columns);
    });
  }, [filterValues, columns]);
  const onChange = useCallback(
    (next: GridFilterModel) => {
      setModel(next as GridFilterModelLike);
      const values = filterModelToFilterValues(next as GridFilterModelLike, filterValues, columns);
      if (JSON.stringify(values) !== JSON.stringify(filterValues ?? {})) setFilters(values, displayedFilters);
    },
    [filterValues, columns, setFilters, displayedFilters],
  );
  return [model as GridFilterModel, onChange] as const;
}

export default function RecordGrid({
  schema,
  descriptors,
  bulkActionButtons,
  listKey,
  pageSizeOptions,
  label,
}: RecordGridProps) {
  const resource = schema.resource;
  const defaults = useMemo(() => defaultColumns(descriptors), [descriptors]);
  const linkField = defaults[0] ?? descriptors[0]?.slug;
  const apiRef = useGridApiRef();
  const { canEdit, isCellEditable, processRowUpdate, renderEditError, conflict } = useCellEditing(schema, apiRef);
  const relationChoices = useRelationChoices(descriptors, canEdit);
  // One permission check per relation column's target, not one per cell.
  const targets = useMemo(
    () => [
      ...new Set(
        descriptors.flatMap((descriptor) =>
          descriptor.reference?.value === 'id' ? [descriptor.reference.resource] : [],
        ),
      ),
    ],
    [descriptors],
  );
  const { canAccess: reads } = useCanAccessResources({ action: 'read', resources: targets });
  const columns = useMemo(
    () =>
      descriptors.map((descriptor) =>
        gridColumn(descriptor, {
          linkField,
          canEdit,
          readsTarget: Boolean(descriptor.reference && reads?.[descriptor.reference.resource]),
          renderEditError,
          relationChoices: relationChoices[descriptor.slug],
        }),
      ),
    [descriptors, linkField, canEdit, reads, renderEditError, relationChoices],
  );
  const filterable = useMemo(() => filterableColumns(descriptors), [descriptors]);
  const [filterModel, onFilterModelChange] = useFilterModel(filterable);
  const editing = useMemo(
    () => ({ apiRef, isCellEditable, processRowUpdate, onProcessRowUpdateError: () => undefined }),
    [apiRef, isCellEditable, processRowUpdate],
  );

  return (
    <>
      {conflict}
      <ListGrid
        resource={resource}
        columns={columns}
        defaults={defaults}
        linkField={linkField}
        bulkActionButtons={bulkActionButtons}
        filtering={{ filterModel, onFilterModelChange }}
        editing={editing}
        listKey={listKey}
        pageSizeOptions={pageSizeOptions}
        label={label}
      />
    </>
  );
}
