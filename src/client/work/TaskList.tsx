/**
 * Tasks (`/tasks`): calls, meetings and visits with their due dates, assignees and records; open ones by default,
 * tick to complete (the sidebar's open count follows), add one. Filters stay in the URL (the dashboard links here).
 */
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import AddIcon from '@mui/icons-material/Add';
import {
  AutocompleteInput,
  DataTable,
  DateInput,
  List,
  NullableBooleanInput,
  Pagination,
  ReferenceField,
  ReferenceInput,
  SearchInput,
  SelectInput,
  Title,
  TopToolbar,
  WithRecord,
  useCanAccess,
  useRecordContext,
} from 'react-admin';
import { useSession } from '../app/hooks';
import { formatDateTime } from '../i18n/dates';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { resourceForType } from '../resources/names';
import { recordLabel } from '../records/schema';
import { RecordName } from '../records/RecordName';
import { TaskForm } from './TaskForm';
import { TASK_TYPES, taskTypeLabel } from './shared';
import { TaskDoneCheckbox } from './TaskDoneCheckbox';

function CompleteBox() {
  const task = useRecordContext();
  return task ? <TaskDoneCheckbox task={task} /> : null;
}

function OwnerLink() {
  const task = useRecordContext();
  if (!task?.taskable_type) return null;
  return (
    <Link component={RouterLink} to={`/${resourceForType(task.taskable_type)}/${task.taskable_id}/show?tab=tasks`}>
      <RecordName type={task.taskable_type} id={task.taskable_id} />
    </Link>
  );
}

export default function TaskList() {
  const { user } = useSession();
  const { canAccess: canCreate } = useCanAccess({ resource: 'tasks', action: 'create' });
  const [adding, setAdding] = useState(false);
  useDocumentTitle('Tasks');
  const { canAccess: readsUsers } = useCanAccess({ resource: 'users', action: 'read' });
  const filters = [
    <SearchInput source="q" alwaysOn key="q" />,
    <NullableBooleanInput source="completed_at_null" label="Status" alwaysOn key="open" trueLabel="Open" falseLabel="Completed" nullLabel="All" />,
    <SelectInput source="type" label="Type" choices={TASK_TYPES} key="type" />,
    <DateInput source="due_at_gte" label="Due from" key="due_from" />,
    <DateInput source="due_at_lte" label="Due to" key="due_to" />,
    ...(readsUsers
      ? [
          <ReferenceInput source="assignee_id" reference="users" key="assignee" perPage={25}>
            <AutocompleteInput label="Assignee" optionText={recordLabel} filterToQuery={(q: string) => ({ q })} sx={{ minWidth: 240 }} />
          </ReferenceInput>,
        ]
      : []),
  ];
  return (
    <Box>
      <List
        resource="tasks"
        title={false}
        filters={filters}
        filterDefaultValues={{ completed_at_null: true, ...(user ? { assignee_id: user.id } : {}) }}
        sort={{ field: 'due_at', order: 'ASC' }}
        perPage={25}
        pagination={<Pagination rowsPerPageOptions={[10, 25, 50, 100]} />}
        actions={
          <TopToolbar>
            {canCreate && (
              <Button size="small" startIcon={<AddIcon />} onClick={() => setAdding(!adding)}>
                New task
              </Button>
            )}
          </TopToolbar>
        }
        empty={false}
      >
        <Title title="Tasks" />
        {adding && (
          <Card variant="outlined" sx={{ m: 1 }}>
            <CardContent>
              <TaskForm onDone={() => setAdding(false)} />
            </CardContent>
          </Card>
        )}
        <DataTable bulkActionButtons={false} rowClick={false}>
          <DataTable.Col label="Done" disableSort>
            <CompleteBox />
          </DataTable.Col>
          <DataTable.Col source="title" label="Task" />
          <DataTable.Col source="type" label="Type" render={(task: any) => <Chip size="small" label={taskTypeLabel(task.type)} />} />
          <DataTable.Col
            source="due_at"
            label="Due"
            render={(task: any) => (task.due_at ? <span style={{ whiteSpace: 'nowrap', color: !task.completed && new Date(task.due_at) < new Date() ? '#c62828' : undefined }}>{formatDateTime(task.due_at)}</span> : '—')}
          />
          {readsUsers && (
            <DataTable.Col source="assignee_id" label="Assignee">
              <ReferenceField source="assignee_id" reference="users" link="show">
                <WithRecord render={(assignee) => <span>{recordLabel(assignee)}</span>} />
              </ReferenceField>
            </DataTable.Col>
          )}
          <DataTable.Col source="taskable_type" label="About" disableSort>
            <OwnerLink />
          </DataTable.Col>
        </DataTable>
      </List>
    </Box>
  );
}
