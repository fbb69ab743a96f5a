/**
 * The revision index (`/revisions`, GET /api/revisions): who changed what and when, newest first, filterable by
 * record type, action, person, record and dates, as the list grid (each person's columns; a card list on a phone);
 * a row's "Changes" opens the changes, before and after.
 */

import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useMemo, useState } from 'react';
import {
  AutocompleteInput,
  type DataProvider,
  DataProviderContext,
  DateInput,
  FilterButton,
  List,
  NumberInput,
  ReferenceInput,
  SelectInput,
  SimpleList,
  Title,
  TopToolbar,
  useCanAccess,
  useRecordContext,
} from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { useMainData } from '../../app/hooks';
import { formatDateTime } from '../../i18n/dates';
import { titleCase } from '../../i18n/labels';
import { useDocumentTitle } from '../../layout/useDocumentTitle';
import { resourceForType } from '../../resources/names';
import { describeField, type FieldDescriptor } from '../fieldTypes/describe';
import ListGrid from '../grid/ListGrid';
import { ResetColumnsButton } from '../grid/ResetColumnsButton';
import { recordCell } from '../grid/recordCell';
import { SmallScreenPagination, useSmallScreen } from '../grid/smallScreen';
import { useAppDataProvider } from '../hooks';
import { RecordName } from '../RecordName';
import { asRecordSchema, recordLabel } from '../schema';
import { ACTION_LABELS, type Revision, revisionAuthor } from './history';
import { RevisionChanges } from './RevisionChanges';

/** The list filters of react-admin -> the query of GET /api/revisions (it takes them as plain parameters). */
export function revisionQuery(
  filter: Record<string, unknown>,
  page: number,
  perPage: number,
): Record<string, string | number> {
  const query: Record<string, string | number> = { page, per_page: Math.min(perPage, 200) };
  for (const key of ['type', 'action', 'user_id', 'revisionable_id', 'from', 'to']) {
    const value = filter[key];
    if (value === undefined || value === null || value === '') continue;
    query[key] =
      key === 'to' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)
        ? `${value}T23:59:59.999Z`
        : (value as string | number);
  }
  return query;
}

function useRevisionsProvider(): DataProvider {
  const base = useAppDataProvider();
  return useMemo(
    () =>
      ({
        ...base,
        async getList(resource: string, params: any) {
          if (resource !== 'revisions') return base.getList(resource, params);
          const answer = await base.revisions<Revision>(
            revisionQuery(params.filter ?? {}, params.pagination?.page ?? 1, params.pagination?.perPage ?? 25),
            params.signal,
          );
          return { data: answer.data, total: answer.meta?.total ?? answer.data.length };
        },
      }) as DataProvider,
    [base],
  );
}

function RecordLink() {
  const revision = useRecordContext<Revision>();
  const { schemas } = useMainData();
  if (!revision) return null;
  const schema = schemas.find((candidate) => candidate.type === revision.revisionable_type);
  const label = schema ? titleCase(schema.name_singular) : revision.revisionable_type;
  const resource = resourceForType(revision.revisionable_type);
  const name = <RecordName type={revision.revisionable_type} id={revision.revisionable_id} />;
  if (revision.action === 'deleted')
    return (
      <span>
        {label}: {name}
      </span>
    );
  return (
    <Link
      component={RouterLink}
      to={`/${resource}/${revision.revisionable_id}/show`}
      onClick={(event) => event.stopPropagation()}
    >
      {label}: {name}
    </Link>
  );
}

function ChangesPanel() {
  const revision = useRecordContext<Revision>();
  const { schemas } = useMainData();
  const descriptors = useMemo(() => {
    const schema = schemas.find((candidate) => candidate.type === revision?.revisionable_type);
    return new Map<string, FieldDescriptor>(
      schema ? asRecordSchema(schema).fields.map((field) => [field.slug, describeField(field)]) : [],
    );
  }, [schemas, revision?.revisionable_type]);
  if (!revision) return null;
  if (!revision.changes || !Object.keys(revision.changes).length) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ p: 1 }}>
        No field changed ({ACTION_LABELS[revision.action].toLowerCase()}).
      </Typography>
    );
  }
  return (
    <Box sx={{ p: 1 }}>
      <RevisionChanges revision={revision} descriptors={descriptors} />
    </Box>
  );
}

/** "Changes": the revision's fields, before and after, in a dialog. */
function ChangesButton() {
  const revision = useRecordContext<Revision>();
  const [open, setOpen] = useState(false);
  if (!revision) return null;
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)}>
        Changes
      </Button>
      {open && (
        <Dialog open onClose={() => setOpen(false)} fullWidth maxWidth="md">
          <DialogTitle>
            {ACTION_LABELS[revision.action] ?? revision.action} · {formatDateTime(revision.created_at)}
          </DialogTitle>
          <DialogContent>
            <ChangesPanel />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setOpen(false)}>Close</Button>
          </DialogActions>
        </Dialog>
      )}
    </>
  );
}

const changedFields = (revision: Revision) =>
  Object.keys(revision.changes ?? {})
    .map((key) => key.replace(/_/g, ' '))
    .join(', ') || '—';

const COLUMNS = (
  [
    {
      field: 'created_at',
      headerName: 'When',
      minWidth: 200,
      valueGetter: (value: unknown) => (value ? formatDateTime(String(value)) : ''),
    },
    {
      field: 'user_name',
      headerName: 'Who',
      minWidth: 140,
      flex: 1,
      valueGetter: (_value: unknown, revision: Revision) => revisionAuthor(revision),
    },
    {
      field: 'action',
      headerName: 'Action',
      minWidth: 120,
      renderCell: ({ row }) => (
        <Chip size="small" label={ACTION_LABELS[row.action as Revision['action']] ?? row.action} />
      ),
    },
    { field: 'revisionable_type', headerName: 'Record', minWidth: 220, flex: 2, renderCell: recordCell(RecordLink) },
    {
      field: 'changes',
      headerName: 'Fields changed',
      minWidth: 200,
      flex: 2,
      valueGetter: (_value: unknown, revision: Revision) => changedFields(revision),
    },
    { field: 'open', headerName: 'Changes', minWidth: 110, renderCell: recordCell(ChangesButton) },
  ] satisfies GridColDef[]
).map((column): GridColDef => ({ sortable: false, filterable: false, ...column }));
const DEFAULTS = COLUMNS.map((column) => column.field);

function RevisionListBody() {
  if (!useSmallScreen())
    return (
      <ListGrid
        resource="revisions"
        columns={COLUMNS}
        defaults={DEFAULTS}
        opens={false}
        label="History"
        pageSizeOptions={[25, 50, 100, 200]}
      />
    );
  return (
    <SimpleList
      primaryText={() => <RecordLink />}
      secondaryText={(revision: Revision) =>
        `${ACTION_LABELS[revision.action] ?? revision.action} · ${revisionAuthor(revision)} · ${formatDateTime(revision.created_at)}`
      }
      tertiaryText={() => <ChangesButton />}
      linkType={false}
    />
  );
}

export default function RevisionList() {
  const provider = useRevisionsProvider();
  const { canAccess, isPending } = useCanAccess({ resource: 'revisions', action: 'list' });
  const { canAccess: readsUsers } = useCanAccess({ resource: 'users', action: 'read' });
  const { schemas } = useMainData();
  useDocumentTitle('History');
  const typeChoices = useMemo(
    () =>
      schemas
        .map((schema) => ({ id: schema.type, name: titleCase(schema.name_plural) }))
        .concat([
          { id: 'user', name: 'Users' },
          { id: 'role', name: 'Roles' },
          { id: 'task', name: 'Tasks' },
          { id: 'note', name: 'Notes' },
        ]),
    [schemas],
  );
  if (isPending) return null;
  if (!canAccess) {
    return (
      <Typography color="text.secondary" sx={{ p: 2 }}>
        You are not allowed to read the history.
      </Typography>
    );
  }
  const filters = [
    <SelectInput key="type" source="type" label="Record type" choices={typeChoices} alwaysOn />,
    <SelectInput
      key="action"
      source="action"
      label="Action"
      choices={Object.entries(ACTION_LABELS).map(([id, name]) => ({ id, name }))}
      alwaysOn
    />,
    <NumberInput key="revisionable_id" source="revisionable_id" label="Record id" />,
    <DateInput key="from" source="from" label="From" />,
    <DateInput key="to" source="to" label="To" />,
    ...(readsUsers
      ? [
          <ReferenceInput key="user_id" source="user_id" reference="users" perPage={25}>
            <AutocompleteInput label="Changed by" optionText={recordLabel} filterToQuery={(q: string) => ({ q })} />
          </ReferenceInput>,
        ]
      : []),
  ];
  return (
    <DataProviderContext.Provider value={provider}>
      <List
        resource="revisions"
        title={false}
        filters={filters}
        perPage={25}
        sort={{ field: 'id', order: 'DESC' }}
        pagination={<SmallScreenPagination />}
        exporter={false}
        empty={false}
        actions={
          <TopToolbar>
            <FilterButton filters={filters} />
            <ResetColumnsButton resource="revisions" />
          </TopToolbar>
        }
        sx={{ '& .RaList-main': { minWidth: 0 } }}
      >
        <Title title="History" />
        <RevisionListBody />
      </List>
    </DataProviderContext.Provider>
  );
}
