/**
 * Bulk edit from a list's bulk actions: the rows selected (or every record matching the list's filter), one field
 * and one value (the field's own input from the field-type table), then the background job's progress (its
 * realtime events, and a poll in case the socket is away), the outcome (what changed, what was refused and why)
 * and Undo, which gives every changed record its value back.
 */

import EditIcon from '@mui/icons-material/EditOutlined';
import UndoIcon from '@mui/icons-material/Undo';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import type { Theme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useMemo, useState } from 'react';
import { Form, useCanAccess, useListContext, useNotify } from 'react-admin';
import { isApiError } from '../../http/errors';
import { useRealtimeEvent } from '../../realtime/useRealtimeEvent';
import { type FieldDescriptor, FieldInput } from '../fieldTypes';
import { useAppDataProvider } from '../hooks';
import { useInvalidateResource } from '../mutations';
import type { RecordSchema } from '../schema';
import {
  type BulkEditRecord,
  bulkEditableFields,
  bulkEditStage,
  bulkProgressText,
  bulkResultText,
  bulkSelection,
  bulkUndoText,
} from './bulkEdit';

const POLL_MS = 1_500;

/** The bulk edit being followed: kept up to date from its events and, while it runs, a poll. */
function useBulkEdit(initial: BulkEditRecord | null) {
  const dataProvider = useAppDataProvider();
  const [record, setRecord] = useState<BulkEditRecord | null>(initial);
  useEffect(() => setRecord(initial), [initial]);
  const id = record?.id;
  const stage = record ? bulkEditStage(record) : null;
  const load = async () => {
    if (!id) return;
    const answer = await dataProvider.getOne<BulkEditRecord>('bulk-edits', { id }).catch(() => null);
    if (answer?.data) setRecord(answer.data);
  };
  useRealtimeEvent(['BulkEditProcessing', 'BulkEditComplete'], (event) => {
    const payload = event.payload as { id?: number; data?: BulkEditRecord } | null;
    if (!payload || payload.id !== id) return;
    // The figures come with the event; the refused records' reasons with the record itself.
    if (event.name === 'BulkEditComplete') void load();
    else if (payload.data) setRecord((current) => ({ ...current, ...payload.data! }));
  });
  useEffect(() => {
    if (stage !== 'running' && stage !== 'undoing') {
      if (stage === 'done' && record && !record.refusals) void load();
      return;
    }
    const timer = setInterval(load, POLL_MS);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, stage]);
  return [record, setRecord] as const;
}

function Progress({ record, plural }: { record: BulkEditRecord; plural: string }) {
  return (
    <Box aria-live="polite">
      <LinearProgress
        variant="determinate"
        value={record.progress}
        aria-label={`Progress ${record.progress}%`}
        sx={{ height: 8, borderRadius: 4 }}
      />
      <Typography variant="body2" sx={{ mt: 1 }} data-testid="bulk-edit-progress">
        {bulkProgressText(record, plural)}
      </Typography>
    </Box>
  );
}

function Outcome({ record, singular, plural }: { record: BulkEditRecord; singular: string; plural: string }) {
  const undone = bulkEditStage(record) === 'undone';
  const lines = undone ? bulkUndoText(record, singular, plural) : bulkResultText(record, singular, plural);
  const refusals = undone ? [] : (record.refusals ?? []);
  return (
    <Box data-testid="bulk-edit-result" aria-live="polite">
      <Alert
        severity={record.status === 'failed' ? 'error' : !undone && record.refused_count ? 'warning' : 'success'}
        sx={{ mb: refusals.length ? 1 : 0 }}
      >
        {lines.map((line) => (
          <div key={line}>{line}</div>
        ))}
      </Alert>
      {refusals.length > 0 && (
        <List
          dense
          aria-label={`${plural} not changed`}
          sx={{ maxHeight: 240, overflow: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}
        >
          {refusals.map((refusal) => (
            <ListItem key={refusal.id} divider>
              <ListItemText primary={refusal.name} secondary={refusal.reason} />
            </ListItem>
          ))}
          {record.refused_count > refusals.length && (
            <ListItem>
              <ListItemText secondary={`and ${(record.refused_count - refusals.length).toLocaleString('en')} more`} />
            </ListItem>
          )}
        </List>
      )}
    </Box>
  );
}

/** Choosing what to set: which records, which field, which value. */
function BulkEditForm({
  schema,
  fields,
  selected,
  total,
  onStarted,
  onCancel,
}: {
  schema: RecordSchema;
  fields: FieldDescriptor[];
  selected: number;
  total: number;
  onStarted: (record: BulkEditRecord) => void;
  onCancel: () => void;
}) {
  const { selectedIds, filterValues } = useListContext();
  const dataProvider = useAppDataProvider();
  const [slug, setSlug] = useState(fields[0]?.slug ?? '');
  const [all, setAll] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const descriptor = fields.find((candidate) => candidate.slug === slug);
  const plural = schema.name_plural.toLowerCase();
  const count = all ? total : selected;

  const submit = async (values: Record<string, unknown>) => {
    if (!descriptor) return;
    setSending(true);
    setError(null);
    try {
      const answer = await dataProvider.create<BulkEditRecord>('bulk-edits', {
        data: {
          resource: schema.resource,
          field: descriptor.slug,
          value: values[descriptor.slug] ?? null,
          ...bulkSelection(selectedIds, filterValues, all),
        },
      });
      onStarted(answer.data);
    } catch (caught) {
      const body = isApiError(caught) ? caught.body : undefined;
      setError(Object.values(body?.errors ?? {})[0] ?? (caught as Error).message);
    } finally {
      setSending(false);
    }
  };

  return (
    <Form key={slug} onSubmit={submit} noValidate>
      <DialogContent sx={{ pt: 1 }}>
        {total > selected && (
          <RadioGroup
            value={all ? 'all' : 'selected'}
            onChange={(event) => setAll(event.target.value === 'all')}
            aria-label="Which records"
          >
            <FormControlLabel
              value="selected"
              control={<Radio />}
              label={`The ${selected.toLocaleString('en')} selected`}
            />
            <FormControlLabel
              value="all"
              control={<Radio />}
              label={`All ${total.toLocaleString('en')} ${plural} matching the list`}
            />
          </RadioGroup>
        )}
        <TextField
          select
          fullWidth
          label="Field"
          value={slug}
          onChange={(event) => setSlug(event.target.value)}
          sx={{ mt: 1, mb: 1 }}
          helperText="Every chosen record gets the value below in this field."
        >
          {fields.map((field) => (
            <MenuItem key={field.slug} value={field.slug}>
              {field.label}
            </MenuItem>
          ))}
        </TextField>
        {descriptor && <FieldInput descriptor={{ ...descriptor, help: undefined }} />}
        {error && (
          <Alert severity="error" sx={{ mt: 1 }} role="alert">
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="contained" disabled={!descriptor || sending}>
          {`Change ${count.toLocaleString('en')} ${count === 1 ? schema.name_singular.toLowerCase() : plural}`}
        </Button>
      </DialogActions>
    </Form>
  );
}

export function BulkEditButton({ schema, descriptors }: { schema: RecordSchema; descriptors: FieldDescriptor[] }) {
  const { selectedIds, total = 0, onUnselectItems } = useListContext();
  const { canAccess: canEdit = false } = useCanAccess({ resource: schema.resource, action: 'edit' });
  const fields = useMemo(() => bulkEditableFields(descriptors), [descriptors]);
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const dataProvider = useAppDataProvider();
  const notify = useNotify();
  const invalidate = useInvalidateResource();
  const [open, setOpen] = useState(false);
  const [started, setStarted] = useState<BulkEditRecord | null>(null);
  const [record, setRecord] = useBulkEdit(started);
  const stage = record ? bulkEditStage(record) : null;
  const singular = schema.name_singular.toLowerCase();
  const plural = schema.name_plural.toLowerCase();

  useEffect(() => {
    if (stage === 'done' || stage === 'undone') void invalidate(schema.resource);
  }, [stage, invalidate, schema.resource]);

  if (!canEdit || fields.length === 0) return null;

  const close = () => {
    if (stage === 'running' || stage === 'undoing')
      notify('The change goes on in the background; the list shows it when it ends.', { type: 'info' });
    if (stage === 'done' || stage === 'undone') onUnselectItems();
    setOpen(false);
    setStarted(null);
  };
  const undo = async () => {
    if (!record) return;
    try {
      const answer = await dataProvider.action('bulk-edits', { id: record.id, action: 'undo' });
      setRecord(answer.data);
    } catch (caught) {
      notify((caught as Error).message, { type: 'error' });
    }
  };
  const label = fields.find((field) => field.slug === record?.field)?.label ?? record?.field;
  const title = !record
    ? `Change ${plural}`
    : stage === 'running'
      ? `Changing ${label} of ${plural}…`
      : stage === 'undoing'
        ? `Putting ${label} back…`
        : stage === 'undone'
          ? 'Undone'
          : `${label}: bulk edit finished`;

  return (
    <>
      <Button size="small" startIcon={<EditIcon />} onClick={() => setOpen(true)} disabled={!selectedIds.length}>
        Edit
      </Button>
      <Dialog
        open={open}
        onClose={close}
        fullWidth
        maxWidth="sm"
        fullScreen={fullScreen}
        aria-labelledby="bulk-edit-title"
      >
        <DialogTitle id="bulk-edit-title">{title}</DialogTitle>
        {!record ? (
          <BulkEditForm
            schema={schema}
            fields={fields}
            selected={selectedIds.length}
            total={total}
            onStarted={setStarted}
            onCancel={close}
          />
        ) : (
          <>
            <DialogContent>
              {stage === 'running' || stage === 'undoing' ? (
                <Progress record={record} plural={plural} />
              ) : (
                <Outcome record={record} singular={singular} plural={plural} />
              )}
            </DialogContent>
            <DialogActions>
              {stage === 'done' && record.changed_count > 0 && (
                <Button startIcon={<UndoIcon />} onClick={undo}>
                  Undo
                </Button>
              )}
              <Button onClick={close} variant={stage === 'done' || stage === 'undone' ? 'contained' : 'text'}>
                {stage === 'running' || stage === 'undoing' ? 'Hide' : 'Close'}
              </Button>
            </DialogActions>
          </>
        )}
      </Dialog>
    </>
  );
}
