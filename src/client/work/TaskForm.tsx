/** A small form for a new task (title, call/meeting/visit, due time, assignee), on a record or on its own. */

import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useCanAccess, useGetList } from 'react-admin';
import { useSession } from '../app/hooks';
import { useRecordMutations } from '../records/mutations';
import { recordLabel } from '../records/schema';
import { type Owner, refreshCounts, TASK_TYPES } from './shared';

function AssigneePicker({
  value,
  onChange,
}: {
  value: { id: number; name: string } | null;
  onChange: (person: { id: number; name: string } | null) => void;
}) {
  const [q, setQ] = useState('');
  const { data = [] } = useGetList('users', {
    filter: q ? { q } : {},
    pagination: { page: 1, perPage: 25 },
    sort: { field: 'last_name', order: 'ASC' },
  });
  const options = [
    ...(value ? [value] : []),
    ...data
      .map((user) => ({ id: Number(user.id), name: recordLabel(user) }))
      .filter((option) => option.id !== value?.id),
  ];
  return (
    <Autocomplete
      options={options}
      value={value}
      filterOptions={(list) => list}
      getOptionLabel={(option) => option.name}
      isOptionEqualToValue={(option, other) => option.id === other.id}
      // Only what the person types searches; the input resetting to the chosen name does not.
      onInputChange={(_event, text, reason) => reason === 'input' && setQ(text)}
      onChange={(_event, option) => onChange(option)}
      sx={{ minWidth: 220 }}
      renderInput={(params) => <TextField {...params} size="small" label="Assignee" margin="none" sx={{ my: 0 }} />}
    />
  );
}

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
  const { canAccess: canPickAssignee } = useCanAccess({ resource: 'users', action: 'read' });

  const submit = async () => {
    setBusy(true);
    const data: Record<string, unknown> = { title, type, due_at: due ? new Date(due).toISOString() : null };
    if (canPickAssignee) data.assignee_id = assignee?.id ?? null;
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
    <Stack
      direction={{ xs: 'column', md: 'row' }}
      spacing={1}
      sx={{ alignItems: { md: 'flex-start' } }}
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
      {canPickAssignee && <AssigneePicker value={assignee} onChange={setAssignee} />}
      <Button
        variant="contained"
        onClick={() => void submit()}
        disabled={busy || !title.trim()}
        sx={{ whiteSpace: 'nowrap' }}
      >
        Add task
      </Button>
    </Stack>
  );
}
