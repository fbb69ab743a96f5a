/** Tasks about a record: open ones first, complete with a tick, add one (call, meeting or visit). */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { RecordContextProvider, ReferenceField, useCanAccess, useGetList, WithRecord } from 'react-admin';
import { useSession } from '../app/hooks';
import { LogConversationButton } from '../conversations/LogConversationButton';
import { isPersonType } from '../conversations/shared';
import { formatDateTime } from '../i18n/dates';
import { RecordName } from '../records/RecordName';
import { recordLabel } from '../records/schema';
import { type Owner, taskTypeLabel } from './shared';
import { TaskDoneCheckbox } from './TaskDoneCheckbox';
import { TaskForm } from './TaskForm';

export function TaskRow({ task, showOwner = false }: { task: any; showOwner?: boolean }) {
  const { user } = useSession();
  const { canAccess: readsUsers } = useCanAccess({ resource: 'users', action: 'read' });
  const overdue = !task.completed && task.due_at && new Date(task.due_at).getTime() < Date.now();
  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{ alignItems: 'center', py: 0.75, borderBottom: 1, borderColor: 'divider' }}
      data-task={task.id}
    >
      <TaskDoneCheckbox task={task} />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography
          variant="body2"
          sx={{ textDecoration: task.completed ? 'line-through' : undefined, overflowWrap: 'anywhere' }}
        >
          {task.title}
        </Typography>
        <Typography variant="caption" color={overdue ? 'error' : 'text.secondary'} component="div">
          {task.due_at ? `Due ${formatDateTime(task.due_at)}` : 'No due date'}
          {task.assignee_id && readsUsers && (
            <RecordContextProvider value={task}>
              {' · '}
              <ReferenceField source="assignee_id" reference="users" link={false}>
                <WithRecord render={(assignee) => <span>{recordLabel(assignee)}</span>} />
              </ReferenceField>
            </RecordContextProvider>
          )}
          {task.assignee_id === user?.id && ' · you'}
        </Typography>
      </Box>
      {!task.completed && isPersonType(task.taskable_type) && (
        <LogConversationButton
          person={{ type: task.taskable_type, id: Number(task.taskable_id) }}
          context={{
            task_id: Number(task.id),
            channel: task.type === 'meeting' || task.type === 'visit' ? task.type : 'call',
          }}
          label="Log"
          size="small"
        />
      )}
      {showOwner && task.taskable_type && (
        <Chip size="small" variant="outlined" label={<RecordName type={task.taskable_type} id={task.taskable_id} />} />
      )}
      <Chip size="small" label={taskTypeLabel(task.type)} />
    </Stack>
  );
}

export function TasksPanel({ owner }: { owner: Owner }) {
  const { canAccess: canCreate } = useCanAccess({ resource: 'tasks', action: 'create' });
  const { data = [], isPending } = useGetList('tasks', {
    filter: { taskable_type: owner.type, taskable_id: owner.id },
    sort: { field: 'due_at', order: 'ASC' },
    pagination: { page: 1, perPage: 100 },
  });
  const open = data.filter((task) => !task.completed);
  const done = data.filter((task) => task.completed);
  return (
    <Stack spacing={2} data-testid="tasks">
      {canCreate && <TaskForm owner={owner} />}
      {!isPending && !data.length && (
        <Typography color="text.secondary" variant="body2">
          No tasks yet.
        </Typography>
      )}
      <Box>
        {[...open, ...done].map((task) => (
          <TaskRow key={task.id} task={task} />
        ))}
      </Box>
    </Stack>
  );
}
