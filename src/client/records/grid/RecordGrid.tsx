/**
 * A record list as a data grid (ListGrid): its columns come from the field-type table (columns.tsx) and cells edit
 * in place through the one write path (useCellEditing.tsx). The grid offers no filter of its own: the list's filter
 * builder (views/FilterBuilder.tsx) is the one.
 */

import { useGridApiRef } from '@mui/x-data-grid';
import { type ReactNode, useMemo } from 'react';
import { useCanAccessResources } from 'react-admin';
import type { FieldDescriptor } from '../fieldTypes';
import { defaultColumns } from '../fieldTypes';
import type { RecordSchema } from '../schema';
import { gridColumn } from './columns';
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
        editing={editing}
        listKey={listKey}
        pageSizeOptions={pageSizeOptions}
        label={label}
      />
    </>
  );
}
