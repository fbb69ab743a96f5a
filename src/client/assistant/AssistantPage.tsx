/**
 * /assistant: the person's conversations, full page (newest first), to open in the side panel, rename, delete and
 * restore; for administrators, which model answers and a test of the connection.
 */

import AddCommentIcon from '@mui/icons-material/AddCommentOutlined';
import CheckIcon from '@mui/icons-material/CheckCircleOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import ErrorIcon from '@mui/icons-material/ErrorOutlined';
import RestoreIcon from '@mui/icons-material/RestoreFromTrash';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Title, useCanAccess, useDelete, useGetList, useNotify, useUpdate } from 'react-admin';
import { formatDateTime } from '../i18n/dates';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { useAppDataProvider } from '../records/hooks';
import { type AssistantStatus, type ConnectionCheck, THREADS, type Thread } from './api';
import { assistantPanel } from './panelStore';

function RenameDialog({ thread, onClose }: { thread: Thread; onClose: () => void }) {
  const [title, setTitle] = useState(thread.title);
  const [update, { isPending }] = useUpdate();
  const notify = useNotify();
  const save = () =>
    update(
      THREADS,
      { id: thread.id, data: { title }, previousData: thread },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => onClose(),
        onError: (error) => notify((error as Error).message, { type: 'error' }),
      },
    );
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>Rename conversation</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          fullWidth
          label="Title"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          slotProps={{ htmlInput: { maxLength: 200 } }}
          sx={{ mt: 1 }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={save} disabled={isPending || !title.trim()}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function ModelCard() {
  const dp = useAppDataProvider();
  const status = useQuery({
    queryKey: ['assistant-status', undefined, undefined],
    queryFn: () => dp.assistantStatus<AssistantStatus>(null),
  });
  const [check, setCheck] = useState<ConnectionCheck | null>(null);
  const [testing, setTesting] = useState(false);
  const notify = useNotify();
  const run = async () => {
    setTesting(true);
    try {
      setCheck(await dp.testAssistantConnection<ConnectionCheck>());
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setTesting(false);
    }
  };
  return (
    <Card variant="outlined" sx={{ mt: 3 }} data-testid="assistant-model-card">
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {status.data?.mode === 'model' ? 'Model' : 'Connect a model'}
        </Typography>
        <Typography variant="body2" sx={{ mb: 1.5 }}>
          {status.data?.mode === 'model'
            ? `Answers come from ${status.data.model} at ${status.data.base_url}.`
            : 'The built-in assistant answers now. To have a language model answer, give the server the address, model and key of an OpenAI-compatible service (the administrator guide, “Assistant”, says how), then test the connection here.'}
        </Typography>
        <Button variant="outlined" onClick={() => void run()} disabled={testing}>
          {testing ? 'Testing…' : 'Test connection'}
        </Button>
        {check ? (
          <List dense data-testid="assistant-connection-steps">
            {check.steps.map((step) => (
              <ListItem key={step.name} disableGutters sx={{ alignItems: 'flex-start', gap: 1 }}>
                {step.ok ? (
                  <CheckIcon color="success" fontSize="small" sx={{ mt: 0.5 }} />
                ) : (
                  <ErrorIcon color="error" fontSize="small" sx={{ mt: 0.5 }} />
                )}
                <ListItemText primary={step.name} secondary={step.detail} />
              </ListItem>
            ))}
          </List>
        ) : null}
      </CardContent>
    </Card>
  );
}

export default function AssistantPage() {
  useDocumentTitle('Assistant');
  const { canAccess: mayConfigure } = useCanAccess({ resource: 'features', action: 'update' });
  const [trashed, setTrashed] = useState(false);
  const [renaming, setRenaming] = useState<Thread | null>(null);
  const dp = useAppDataProvider();
  const notify = useNotify();
  const [remove] = useDelete();
  const queryClient = useQueryClient();
  // Both views (live and deleted) change with a delete or a restore.
  const reload = () => queryClient.invalidateQueries({ queryKey: [THREADS] });
  const { data: threads = [], isPending } = useGetList<Thread>(THREADS, {
    sort: { field: trashed ? 'deleted_at' : 'last_message_at', order: 'DESC' },
    pagination: { page: 1, perPage: 200 },
    meta: trashed ? { query: { only_trashed: 1 } } : undefined,
  });
  const restore = async (thread: Thread) => {
    try {
      await dp.restore(THREADS, { id: thread.id });
      notify('Conversation restored.', { type: 'success' });
      void reload();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };
  const del = (thread: Thread) =>
    remove(
      THREADS,
      { id: thread.id, previousData: thread },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify('Conversation deleted. Find it under Deleted to restore it.', { type: 'info' });
          void reload();
        },
        onError: (error) => notify((error as Error).message, { type: 'error' }),
      },
    );

  return (
    <Box sx={{ maxWidth: 900 }}>
      <Title title="Assistant" />
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          Conversations
        </Typography>
        <FormControlLabel
          control={<Switch checked={trashed} onChange={(e) => setTrashed(e.target.checked)} />}
          label="Deleted"
        />
        <Button variant="contained" startIcon={<AddCommentIcon />} onClick={() => assistantPanel.open(null)}>
          New conversation
        </Button>
      </Box>
      <Card variant="outlined">
        {threads.length === 0 && !isPending ? (
          <CardContent>
            <Typography color="text.secondary">
              {trashed
                ? 'No deleted conversations.'
                : 'No conversations yet. Ask the assistant a question to start one.'}
            </Typography>
          </CardContent>
        ) : (
          <List disablePadding data-testid="assistant-threads">
            {threads.map((thread) => (
              <ListItem
                key={thread.id}
                divider
                disablePadding
                secondaryAction={
                  trashed ? (
                    <Tooltip title="Restore">
                      <IconButton
                        edge="end"
                        aria-label={`Restore ${thread.title}`}
                        onClick={() => void restore(thread)}
                      >
                        <RestoreIcon />
                      </IconButton>
                    </Tooltip>
                  ) : (
                    <Box sx={{ display: 'flex' }}>
                      <Tooltip title="Rename">
                        <IconButton aria-label={`Rename ${thread.title}`} onClick={() => setRenaming(thread)}>
                          <EditIcon />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title="Delete">
                        <IconButton edge="end" aria-label={`Delete ${thread.title}`} onClick={() => del(thread)}>
                          <DeleteIcon />
                        </IconButton>
                      </Tooltip>
                    </Box>
                  )
                }
                sx={{ pr: trashed ? 7 : 12 }}
              >
                <ListItemButton disabled={trashed} onClick={() => assistantPanel.open(thread.id)}>
                  <ListItemText
                    primary={thread.title}
                    secondary={
                      thread.last_message_at
                        ? formatDateTime(thread.last_message_at)
                        : formatDateTime(thread.created_at)
                    }
                    slotProps={{ primary: { noWrap: true } }}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        )}
      </Card>
      {mayConfigure ? <ModelCard /> : null}
      {renaming ? <RenameDialog thread={renaming} onClose={() => setRenaming(null)} /> : null}
    </Box>
  );
}
