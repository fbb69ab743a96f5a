/** The tick that completes or reopens a task: ticked at once, then the server's answer (or its refusal) settles it. */

import Checkbox from '@mui/material/Checkbox';
import { useEffect, useState } from 'react';
import { useCanAccess } from 'react-admin';
import { useRecordMutations } from '../records/mutations';
import { refreshCounts } from './shared';

export function TaskDoneCheckbox({ task }: { task: any }) {
  const { canAccess: canUpdate } = useCanAccess({ resource: 'tasks', action: 'edit' });
  const { update } = useRecordMutations('tasks');
  const [checked, setChecked] = useState<boolean>(Boolean(task.completed));
  useEffect(() => setChecked(Boolean(task.completed)), [task.completed]);
  return (
    <Checkbox
      size="small"
      checked={checked}
      disabled={!canUpdate}
      // Inside a clickable list row: the tick must not open the task.
      onClick={(event) => event.stopPropagation()}
      onChange={async (event) => {
        const next = event.target.checked;
        setChecked(next);
        const outcome = await update(task.id, { completed: next }, task, next ? 'Task completed.' : 'Task reopened.');
        if (!outcome.record) setChecked(Boolean(task.completed));
        refreshCounts();
      }}
      slotProps={{ input: { 'aria-label': `Complete ${task.title}` } }}
    />
  );
}
