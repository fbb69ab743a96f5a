/** Deletes the selected records after a confirmation, one DELETE each, and says how it went. */

import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useListContext, useNotify } from 'react-admin';
import { titleCase } from '../i18n/labels';
import { DeleteConfirm } from './DeleteConfirm';
import { useAppDataProvider } from './hooks';
import { useInvalidateResource } from './mutations';
import type { RecordSchema } from './schema';

export function BulkDeleteRecordsButton({ schema }: { schema: RecordSchema }) {
  const { selectedIds, onUnselectItems, data = [] } = useListContext();
  const [open, setOpen] = useState(false);
  const dataProvider = useAppDataProvider();
  const notify = useNotify();
  const invalidate = useInvalidateResource();
  const count = selectedIds.length;
  const what = count === 1 ? schema.name_singular.toLowerCase() : schema.name_plural.toLowerCase();

  const run = async () => {
    let deleted = 0;
    let lastMessage: string | undefined;
    const failures: string[] = [];
    for (const id of selectedIds) {
      try {
        const previousData = data.find((record) => record.id === id);
        const result = await dataProvider.delete(schema.resource, { id, previousData });
        lastMessage = result.meta?.message;
        deleted += 1;
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
    onUnselectItems();
    await invalidate(schema.resource);
    if (failures.length)
      notify(`${deleted} deleted; ${failures.length} could not be deleted: ${failures[0]}`, { type: 'warning' });
    else
      notify(
        deleted === 1 && lastMessage
          ? lastMessage
          : `${deleted} ${titleCase(schema.name_plural).toLowerCase()} deleted successfully.`,
        { type: 'success' },
      );
  };

  return (
    <>
      <Button color="error" size="small" startIcon={<DeleteIcon />} onClick={() => setOpen(true)} disabled={!count}>
        Delete
      </Button>
      <DeleteConfirm
        open={open}
        title={`Delete ${count} ${what}?`}
        restorable={schema.restorable !== false}
        onConfirm={run}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
