/** /importers: list (the list grid, with export/import as a file and reorder), create, edit and show. */

import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DownloadIcon from '@mui/icons-material/Download';
import FileUploadIcon from '@mui/icons-material/FileUpload';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useRef } from 'react';
import {
  ArrayField,
  BooleanField,
  ChipField,
  Create,
  CreateButton,
  Datagrid,
  Edit,
  EditButton,
  FunctionField,
  List,
  NumberField,
  Show,
  SimpleList,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  useNotify,
  useRecordContext,
  useRedirect,
  useRefresh,
} from 'react-admin';
import ListGrid from '../records/grid/ListGrid';
import { ResetColumnsButton } from '../records/grid/ResetColumnsButton';
import { recordCell } from '../records/grid/recordCell';
import { SmallScreenPagination, useSmallScreen } from '../records/grid/smallScreen';
import { useAppDataProvider } from '../records/hooks';
import { ImporterForm } from './ImporterForm';

const TYPE_NAMES: Record<string, string> = { site: 'Job sites', contractor: 'Contractors', member: 'Members' };

function ImportImporterButton() {
  const input = useRef<HTMLInputElement>(null);
  const dataProvider = useAppDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const onFile = async (file?: File) => {
    if (!file) return;
    const form = new FormData();
    form.append('file', file, file.name);
    try {
      const answer = await dataProvider.action('importers', { action: 'import', data: { file } });
      notify(answer.meta?.message ?? 'The importer file was imported.', { type: 'info' });
      refresh();
    } catch (error: any) {
      notify(error?.message ?? 'The importer file could not be imported.', { type: 'error' });
    }
    if (input.current) input.current.value = '';
  };
  return (
    <>
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        hidden
        onChange={(e) => void onFile(e.target.files?.[0])}
      />
      <Button size="small" startIcon={<FileUploadIcon />} onClick={() => input.current?.click()}>
        Import importer file
      </Button>
    </>
  );
}

function RowActions() {
  const record = useRecordContext();
  const dataProvider = useAppDataProvider();
  const refresh = useRefresh();
  const notify = useNotify();
  if (!record) return null;
  const move = async (event: React.MouseEvent, delta: number) => {
    event.stopPropagation();
    try {
      await dataProvider.action('importers', {
        id: record.id,
        action: 'reorder',
        data: { position: Math.max(0, Number(record.position ?? 0) + delta) },
      });
      refresh();
    } catch (error: any) {
      notify(error?.message ?? 'The importer could not be moved.', { type: 'error' });
    }
  };
  return (
    <Stack direction="row" spacing={0.5} onClick={(e) => e.stopPropagation()}>
      <Tooltip title="Move up">
        <IconButton size="small" aria-label={`Move ${record.name} up`} onClick={(e) => void move(e, -1)}>
          <ArrowUpwardIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title="Move down">
        <IconButton size="small" aria-label={`Move ${record.name} down`} onClick={(e) => void move(e, 1)}>
          <ArrowDownwardIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title="Export as a file">
        <IconButton
          size="small"
          aria-label={`Export ${record.name} as a file`}
          href={`/api/importers/${record.id}/export`}
          onClick={(e) => e.stopPropagation()}
        >
          <DownloadIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <EditButton label="" aria-label={`Edit ${record.name}`} />
    </Stack>
  );
}

const COLUMNS = (
  [
    { field: 'name', headerName: 'Name', minWidth: 180, flex: 2 },
    {
      field: 'record_type',
      headerName: 'Imports',
      minWidth: 130,
      flex: 1,
      valueGetter: (value: unknown) => TYPE_NAMES[String(value)] ?? value,
    },
    {
      field: 'columns',
      headerName: 'Columns',
      sortable: false,
      minWidth: 110,
      valueGetter: (value: unknown) =>
        `${((value as Array<{ target?: unknown }>) ?? []).filter((c) => c.target).length} mapped`,
    },
    {
      field: 'rules',
      headerName: 'Rules',
      type: 'number',
      sortable: false,
      minWidth: 90,
      valueGetter: (value: unknown) => ((value as unknown[]) ?? []).length,
    },
    {
      field: 'key_target',
      headerName: 'Key',
      minWidth: 120,
      flex: 1,
      valueGetter: (value: unknown) => value ?? 'none',
    },
    { field: 'actions', headerName: 'Actions', sortable: false, minWidth: 190, renderCell: recordCell(RowActions) },
  ] satisfies GridColDef[]
).map((column): GridColDef => ({ filterable: false, ...column }));
const DEFAULTS = COLUMNS.map((column) => column.field);

function ImporterListBody() {
  if (useSmallScreen())
    return (
      <SimpleList
        primaryText={(r) => r.name}
        secondaryText={(r) => TYPE_NAMES[r.record_type] ?? r.record_type}
        linkType="show"
      />
    );
  return (
    <ListGrid
      resource="importers"
      columns={COLUMNS}
      defaults={DEFAULTS}
      label="Importers"
      pageSizeOptions={[25, 50, 100]}
    />
  );
}

export function ImporterList() {
  return (
    <List
      resource="importers"
      sort={{ field: 'position', order: 'ASC' }}
      perPage={50}
      exporter={false}
      pagination={<SmallScreenPagination />}
      sx={{ '& .RaList-main': { minWidth: 0 } }}
      actions={
        <TopToolbar>
          <ResetColumnsButton resource="importers" />
          <ImportImporterButton />
          <CreateButton />
        </TopToolbar>
      }
    >
      <ImporterListBody />
    </List>
  );
}

export function ImporterCreate() {
  const redirect = useRedirect();
  return (
    <Create
      resource="importers"
      mutationMode="pessimistic"
      mutationOptions={{ onSuccess: (data: any) => redirect('edit', 'importers', data.id) }}
    >
      <ImporterForm creating />
    </Create>
  );
}

export function ImporterEdit() {
  return (
    <Edit resource="importers" mutationMode="pessimistic">
      <ImporterForm />
    </Edit>
  );
}

export function ImporterShow() {
  return (
    <Show
      resource="importers"
      actions={
        <TopToolbar>
          <EditButton />
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <TextField source="name" />
        <FunctionField label="Imports" render={(r: any) => TYPE_NAMES[r.record_type] ?? r.record_type} />
        <TextField source="description" emptyText="-" />
        <TextField source="key_target" label="Key" emptyText="none" />
        <BooleanField source="create_related" label="Creates related records" />
        <BooleanField source="all_or_nothing" label="All or nothing" />
        <FunctionField
          label="Protected fields"
          render={(r: any) => ((r.protected_fields ?? []).length ? r.protected_fields.join(', ') : 'none')}
        />
        <ArrayField source="columns">
          <Datagrid bulkActionButtons={false} rowClick={false}>
            <TextField source="header" label="CSV header" />
            <TextField source="target" label="Goes to" emptyText="(not imported)" />
          </Datagrid>
        </ArrayField>
        <ArrayField source="rules">
          <Datagrid
            bulkActionButtons={false}
            rowClick={false}
            empty={<Typography variant="body2">No rules.</Typography>}
          >
            <TextField source="source" label="When column" />
            <ChipField source="operator" />
            <TextField source="value" />
            <TextField source="action_value" label="Set trade" />
          </Datagrid>
        </ArrayField>
        <NumberField source="position" />
      </SimpleShowLayout>
    </Show>
  );
}
