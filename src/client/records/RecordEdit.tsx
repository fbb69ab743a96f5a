/**
 * The generated edit screen (`/{resource}/{id}`), on react-admin's edit controller (pessimistic: a 422 puts the
 * server's message on each field). The form keeps the record as it was when it opened: a change someone else saves
 * meanwhile (heard live) does not overwrite what is being typed; a notice says so instead. The update sends the
 * `updated_at` the form opened with, so the server refuses to save over that change (409) and the form offers to
 * reload.
 */

import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useEffect, useState } from 'react';
import { EditContextProvider, Title, useEditController } from 'react-admin';
import { useNavigate, useParams } from 'react-router-dom';
import { titleCase } from '../i18n/labels';
import { PageHeader } from '../layout/PageHeader';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { useDescriptors } from './hooks';
import { PresenceAvatars } from './presence/PresenceAvatars';
import { RecordForm } from './RecordForm';
import { type RecordSchema, recordLabel, writableValues } from './schema';
import { useRefetchLists, useSaveError, useServerMessage } from './serverMessage';
import { LoadFailed, MissingSchema, PageLoading, useRecordScreen } from './ui';

function EditForm({
  schema,
  record,
  onCancel,
}: {
  schema: RecordSchema;
  record: Record<string, unknown>;
  onCancel: () => void;
}) {
  const descriptors = useDescriptors(schema);
  useServerMessage(`${titleCase(schema.name_singular)} updated successfully.`);
  return (
    <RecordForm
      key={`${record.id}:${record.updated_at}`}
      schema={schema}
      descriptors={descriptors}
      record={record}
      onCancel={onCancel}
    />
  );
}

function EditScreen({ resource, schema }: { resource: string; schema: RecordSchema }) {
  const { id } = useParams<{ id: string }>();
  const navigate = useNavigate();
  /** The record as the form opened it. */
  const [opened, setOpened] = useState<any>(null);
  const [conflict, setConflict] = useState<string | null>(null);
  const onError = useSaveError(setConflict);
  const refetchLists = useRefetchLists(resource);
  const controller = useEditController({
    resource,
    id,
    mutationMode: 'pessimistic',
    redirect: false,
    transform: (values: Record<string, unknown>) => writableValues(values, schema, opened?.updated_at),
    mutationOptions: {
      onSuccess: () => {
        void refetchLists();
        void navigate(`/${resource}/${id}/show`);
      },
      onError,
    },
    // A record that cannot be loaded is explained on this page (LoadFailed), not by leaving it.
    queryOptions: { onError: () => undefined },
  });
  const { record: live, error, isPending, refetch } = controller;

  useEffect(() => {
    if (live && (!opened || String(opened.id) !== String(live.id))) setOpened(live);
  }, [live, opened]);

  const singular = titleCase(schema.name_singular);
  const title = opened ? `${singular}: ${recordLabel(opened)}` : singular;
  useDocumentTitle(title);

  if (error && !opened) return <LoadFailed error={error} />;
  if (isPending || !opened) return <PageLoading />;

  const changedMeanwhile = live?.updated_at && opened.updated_at && live.updated_at !== opened.updated_at;
  const reload = async () => {
    const fresh = await refetch();
    if (fresh.data) setOpened(fresh.data);
    setConflict(null);
  };

  return (
    <EditContextProvider value={controller}>
      <Box sx={{ maxWidth: 1100 }}>
        <Title title={title} />
        <PageHeader
          title={`Edit ${recordLabel(opened)}`}
          subtitle={singular}
          actions={<PresenceAvatars type={schema.type} id={opened.id} />}
        />
        {changedMeanwhile && (
          <Alert
            severity="warning"
            sx={{ mb: 2 }}
            data-testid="changed-meanwhile"
            action={
              <Button color="inherit" size="small" onClick={() => void reload()}>
                Reload
              </Button>
            }
          >
            Someone else saved a change to this {schema.name_singular.toLowerCase()} since you opened it. Reload to see
            it (your unsaved changes here will be lost).
          </Alert>
        )}
        <EditForm schema={schema} record={opened} onCancel={() => navigate(`/${resource}/${opened.id}/show`)} />
        <Dialog open={conflict !== null} onClose={() => setConflict(null)} aria-labelledby="conflict-title">
          <DialogTitle id="conflict-title">Not saved: this {schema.name_singular.toLowerCase()} changed</DialogTitle>
          <DialogContent>
            <DialogContentText>{conflict}</DialogContentText>
            <DialogContentText sx={{ mt: 1 }}>
              Nothing was overwritten. Reload to get their version, then make your change again.
            </DialogContentText>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setConflict(null)}>Keep editing</Button>
            <Button variant="contained" onClick={() => void reload()} autoFocus>
              Reload
            </Button>
          </DialogActions>
        </Dialog>
      </Box>
    </EditContextProvider>
  );
}

export default function RecordEdit({ resource: resourceProp }: { resource?: string }) {
  const { resource, schema, featureOff } = useRecordScreen(resourceProp);
  if (!schema) return <MissingSchema resource={resource} />;
  if (featureOff) return featureOff;
  return <EditScreen resource={resource} schema={schema} />;
}
