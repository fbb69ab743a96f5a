/** The tick that completes or reopens a task: ticked at once, then the server's answer (or its refusal) settles it. */
import { useEffect, useState } from 'react';
import Checkbox from '@mui/material/Checkbox';
import { canOnEntity } from '../../common/permissions';
import { useUser } from '../records/hooks';
import { useRecordMutations } from '../records/mutations';
import { refreshCounts } from './shared';

export function TaskDoneCheckbox({ task }: { task: any }) {
  const user = useUser();
  const { update } = useRecordMutations('tasks');
  const [checked, setChecked] = useState<boolean>(Boolean(task.completed));
  useEffect(() => setChecked(Boolean(task.completed)), [task.completed]);
  return (
    <Checkbox
      size="small"
      checked={checked}
      disabled={!canOnEntity(user, 'task', 'update')}
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
