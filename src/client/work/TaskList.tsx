/**
 * Tasks (`/tasks`): calls, meetings and visits with their due dates, assignees and records; open ones by default,
 * tick to complete (the sidebar's open count follows), add one. The list grid (each person's columns), a card list
 * on a phone. Filters stay in the URL (the dashboard links here).
 */

import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import type { GridColDef } from '@mui/x-data-grid';
import { useMemo, useState } from 'react';
import {
  AutocompleteInput,
  DateInput,
  List,
  NullableBooleanInput,
  ReferenceField,
  ReferenceInput,
  SearchInput,
  SelectInput,
  SimpleList,
  Title,
  TopToolbar,
  useCanAccess,
  useRecordContext,
  WithRecord,
} from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { useSession } from '../app/hooks';
import { formatDateTime } from '../i18n/dates';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import ListGrid from '../records/grid/ListGrid';
import { ResetColumnsButton } from '../records/grid/ResetColumnsButton';
import { recordCell } from '../records/grid/recordCell';
import { SmallScreenPagination, useSmallScreen } from '../records/grid/smallScreen';
import { RecordName } from '../records/RecordName';
import { recordLabel } from '../records/schema';
import { resourceForType } from '../resources/names';
import { TASK_TYPES, taskTypeLabel } from './shared';
import { TaskDoneCheckbox } from './TaskDoneCheckbox';
import { TaskForm } from './TaskForm';

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

function Due() {
  const task = useRecordContext();
  if (!task?.due_at) return <>—</>;
  return (
    <span
      style={{
        whiteSpace: 'nowrap',
        color: !task.completed && new Date(task.due_at) < new Date() ? '#c62828' : undefined,
      }}
    >
      {formatDateTime(task.due_at)}
    </span>
  );
}

function Assignee() {
  return (
    <ReferenceField source="assignee_id" reference="users" link="show">
      <WithRecord render={(assignee) => <span>{recordLabel(assignee)}</span>} />
    </ReferenceField>
  );
}

const column = (field: string, headerName: string, extra: Partial<GridColDef>): GridColDef => ({
  field,
  headerName,
  filterable: false,
  minWidth: 120,
  flex: 1,
  ...extra,
});

const COLUMNS: GridColDef[] = [
  column('done', 'Done', { sortable: false, minWidth: 80, flex: 0, renderCell: recordCell(CompleteBox) }),
  column('title', 'Task', { minWidth: 200, flex: 2 }),
  column('type', 'Type', { renderCell: ({ row }) => <Chip size="small" label={taskTypeLabel(row.type)} /> }),
  column('due_at', 'Due', { minWidth: 170, renderCell: recordCell(Due) }),
  column('assignee_id', 'Assignee', { renderCell: recordCell(Assignee) }),
  column('taskable_type', 'About', { sortable: false, minWidth: 180, renderCell: recordCell(OwnerLink) }),
];

function TaskListBody({ readsUsers }: { readsUsers: boolean }) {
  const columns = useMemo(
    () => (readsUsers ? COLUMNS : COLUMNS.filter((entry) => entry.field !== 'assignee_id')),
    [readsUsers],
  );
  const defaults = useMemo(() => columns.map((entry) => entry.field), [columns]);
  if (useSmallScreen()) {
    return (
      <SimpleList
        primaryText={(task) => task.title}
        secondaryText={() => <Due />}
        tertiaryText={(task) => taskTypeLabel(task.type)}
        leftIcon={() => <CompleteBox />}
        linkType={false}
      />
    );
  }
  return <ListGrid resource="tasks" columns={columns} defaults={defaults} opens={false} label="Tasks" />;
}

export default function TaskList() {
  const { user } = useSession();
  const { canAccess: canCreate } = useCanAccess({ resource: 'tasks', action: 'create' });
  const [adding, setAdding] = useState(false);
  useDocumentTitle('Tasks');
  const { canAccess: readsUsers } = useCanAccess({ resource: 'users', action: 'read' });
  const filters = [
    <SearchInput source="q" alwaysOn key="q" />,
    <NullableBooleanInput
      source="completed_at_null"
      label="Status"
      alwaysOn
      key="open"
      trueLabel="Open"
      falseLabel="Completed"
      nullLabel="All"
    />,
    <SelectInput source="type" label="Type" choices={TASK_TYPES} key="type" />,
    <DateInput source="due_at_gte" label="Due from" key="due_from" />,
    <DateInput source="due_at_lte" label="Due to" key="due_to" />,
    ...(readsUsers
      ? [
          <ReferenceInput source="assignee_id" reference="users" key="assignee" perPage={25}>
            <AutocompleteInput
              label="Assignee"
              optionText={recordLabel}
              filterToQuery={(q: string) => ({ q })}
              sx={{ minWidth: 240 }}
            />
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
        pagination={<SmallScreenPagination />}
        sx={{ '& .RaList-main': { minWidth: 0 } }}
        actions={
          <TopToolbar>
            <ResetColumnsButton resource="tasks" />
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
        <TaskListBody readsUsers={Boolean(readsUsers)} />
      </List>
    </Box>
  );
}
