/**
 * Editing a cell in place through the one write path: the data provider's update with the row's `updated_at`
 * (records/mutations.ts, as the edit form does), so the server validates, applies the form logic, writes the
 * revision and refuses a row someone else changed (409). The cell shows the server's answer as soon as it comes (the
 * record as the person reads it, with the names of its links); the resource's queries are asked again once that is
 * painted, not before (the server may move the record in or out of a sorted or filtered list). A refused
 * value (422) stays in the cell with the server's message beside it; a 409 offers to reload the row. A cell is
 * editable only when the person may update the record and the form logic shows that field for that row.
 */

import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Tooltip from '@mui/material/Tooltip';
import type { GridApi, GridCellParams, GridRenderEditCellParams, GridValidRowModel } from '@mui/x-data-grid';
import { type ReactNode, type RefObject, useCallback, useMemo, useState } from 'react';
import { useCanAccess } from 'react-admin';
import { titleCase } from '../../i18n/labels';
import { runLogic } from '../logic/logic';
import { useInvalidateResource, useRecordMutations } from '../mutations';
import { type RecordSchema, writableValues } from '../schema';

/** The refused edit of one cell: its message, shown while the cell stays in edit mode. */
interface RefusedEdit {
  id: unknown;
  field: string;
  message: string;
}

class EditRefused extends Error {}

const changedField = (next: GridValidRowModel, previous: GridValidRowModel) =>
  Object.keys(next).find((key) => JSON.stringify(next[key]) !== JSON.stringify(previous[key]));

export function useCellEditing(schema: RecordSchema, apiRef: RefObject<GridApi | null>) {
  const { canAccess: canEdit = false } = useCanAccess({ resource: schema.resource, action: 'edit' });
  const { update } = useRecordMutations(schema.resource);
  const invalidate = useInvalidateResource();
  const [refused, setRefused] = useState<RefusedEdit | null>(null);
  const [conflict, setConflict] = useState<{ id: unknown; field: string; message: string } | null>(null);
  const fields = useMemo(() => schema.fields.map((field) => ({ id: field.id, slug: field.slug })), [schema.fields]);
  const singular = titleCase(schema.name_singular);

  const isCellEditable = useCallback(
    (params: GridCellParams) => {
      if (!params.colDef.editable) return false;
      if (!schema.actions?.length) return true;
      return runLogic(schema.actions, params.row, fields, { kind: 'all' }).visibility[params.field] !== 'hidden';
    },
    [schema.actions, fields],
  );

  const processRowUpdate = useCallback(
    async (next: GridValidRowModel, previous: GridValidRowModel) => {
      const field = changedField(next, previous);
      if (!field) return previous;
      const data = writableValues({ [field]: next[field] }, schema, previous.updated_at as string | undefined);
      const outcome = await update(
        previous.id as string | number,
        data,
        previous,
        `${singular} updated successfully.`,
        'after',
      );
      if (outcome.conflict) {
        setConflict({ id: previous.id, field, message: outcome.conflict });
        throw new EditRefused(outcome.conflict);
      }
      if (outcome.errors) {
        const message = outcome.errors[field] ?? Object.values(outcome.errors)[0] ?? 'This value was not saved.';
        setRefused({ id: previous.id, field, message });
        throw new EditRefused(message);
      }
      setRefused(null);
      return { ...previous, ...next, ...(outcome.record ?? {}) };
    },
    [schema, update, singular],
  );

  const renderEditError = useCallback(
    (params: GridRenderEditCellParams, input: ReactNode) => {
      const message = refused && refused.id === params.id && refused.field === params.field ? refused.message : '';
      return (
        <Tooltip open={Boolean(message)} title={message} placement="bottom-start" arrow>
          <Box
            sx={{
              width: '100%',
              height: '100%',
              display: 'flex',
              ...(message ? { outline: 2, outlineColor: 'error.main', outlineOffset: -2 } : {}),
            }}
            data-error={message || undefined}
          >
            {input}
          </Box>
        </Tooltip>
      );
    },
    [refused],
  );

  const reload = async () => {
    if (conflict)
      apiRef.current?.stopCellEditMode({ id: conflict.id as never, field: conflict.field, ignoreModifications: true });
    setConflict(null);
    setRefused(null);
    await invalidate(schema.resource);
  };

  const dialog = (
    <Dialog open={Boolean(conflict)} onClose={() => setConflict(null)} aria-labelledby="grid-conflict-title">
      <DialogTitle id="grid-conflict-title">{`This ${schema.name_singular.toLowerCase()} was changed`}</DialogTitle>
      <DialogContent>
        <DialogContentText>{conflict?.message}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => setConflict(null)}>Keep editing</Button>
        <Button onClick={reload} variant="contained">
          Reload
        </Button>
      </DialogActions>
    </Dialog>
  );

  return { canEdit, isCellEditable, processRowUpdate, renderEditError, conflict: dialog };
}
