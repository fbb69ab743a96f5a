/** A small form for a new task (title, call/meeting/visit, due time, assignee: anyone adding tasks may name one), on a record or on its own. */

import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useSession } from '../app/hooks';
import { AssigneePicker } from '../assignees/AssigneePicker';
import { useRecordMutations } from '../records/mutations';
import { type Owner, refreshCounts, TASK_TYPES } from './shared';

export function TaskForm({ owner, onDone }: { owner?: Owner; onDone?: () => void }) {
  const { user } = useSession();
  const { create } = useRecordMutations('tasks');
  const [title, setTitle] = useState('');
  const [type, setType] = useState('call');
  const [due, setDue] = useState('');
  const [assignee, setAssignee] = useState<{ id: number; name: string } | null>(
    user ? { id: user.id, name: user.name } : null,
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setBusy(true);
    const data: Record<string, unknown> = { title, type, due_at: due ? new Date(due).toISOString() : null };
    data.assignee_id = assignee?.id ?? null;
    if (owner) Object.assign(data, { taskable_type: owner.type, taskable_id: Number(owner.id) });
    const outcome = await create(data, 'Task created successfully.');
    setBusy(false);
    if (outcome.record) {
      setTitle('');
      setDue('');
      setErrors({});
      refreshCounts();
      onDone?.();
    } else setErrors(outcome.errors ?? {});
  };

  return (
    // Wraps rather than squeezing: beside the menu at 1280 px the row is narrower than its fields, and the button
    // must never be cut off.
    <Stack
      direction={{ xs: 'column', md: 'row' }}
      spacing={1}
      useFlexGap
      sx={{ alignItems: { md: 'flex-start' }, flexWrap: { md: 'wrap' } }}
      data-testid="task-form"
    >
      <TextField
        label="Task"
        value={title}
        onChange={(event) => setTitle(event.target.value)}
        size="small"
        sx={{ flex: 2, minWidth: 180 }}
        error={Boolean(errors.title)}
        helperText={errors.title}
        required
      />
      <TextField
        select
        label="Type"
        value={type}
        onChange={(event) => setType(event.target.value)}
        size="small"
        sx={{ minWidth: 120 }}
      >
        {TASK_TYPES.map((choice) => (
          <MenuItem key={choice.id} value={choice.id}>
            {choice.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        label="Due"
        type="datetime-local"
        value={due}
        onChange={(event) => setDue(event.target.value)}
        size="small"
        slotProps={{ inputLabel: { shrink: true } }}
        error={Boolean(errors.due_at)}
        helperText={errors.due_at}
      />
      <AssigneePicker value={assignee} onChange={setAssignee} error={errors.assignee_id} testId="task-assignee" />
      <Button
        variant="contained"
        onClick={() => void submit()}
        disabled={busy || !title.trim()}
        sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
      >
        Add task
      </Button>
    </Stack>
  );
}
