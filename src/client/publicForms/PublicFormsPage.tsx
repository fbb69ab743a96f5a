/** `/public-forms`: the published forms (public link, submissions) and the dialog that publishes or edits one. */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useState } from 'react';
import { Title, useNotify } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { useMainData } from '../app/hooks';
import { useAppDataProvider } from '../records/hooks';
import { type ListedForm as PublicForm, usePublicFormsApi } from './api';
import { ManagerOnly } from './ManagerOnly';
import { type CampaignChoice, PublicFormDialog } from './PublicFormDialog';
import { PublicLink } from './PublicLink';

export default function PublicFormsPage() {
  return (
    <ManagerOnly>
      <PublicForms />
    </ManagerOnly>
  );
}

function PublicForms() {
  const api = usePublicFormsApi();
  const dp = useAppDataProvider();
  const notify = useNotify();
  const { schemas } = useMainData();
  const [forms, setForms] = useState<PublicForm[] | null>(null);
  const [campaigns, setCampaigns] = useState<CampaignChoice[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [editing, setEditing] = useState<PublicForm | 'new' | null>(null);
  const [confirming, setConfirming] = useState<{ form: PublicForm; remove: boolean } | null>(null);
  const reload = useCallback(async () => setForms(await api.list()), [api]);
  useEffect(() => {
    reload().catch((error: Error) => setFailure(error.message));
    dp.getList<CampaignChoice>('campaigns', {
      pagination: { page: 1, perPage: 200 },
      sort: { field: 'name', order: 'ASC' },
      filter: {},
    })
      .then(({ data }) => setCampaigns(data.map(({ id, name }) => ({ id, name }))))
      .catch((error: Error) => setFailure(error.message));
  }, [reload, dp]);

  const campaignName = (id: number | null) =>
    id === null ? null : (campaigns.find((campaign) => campaign.id === id)?.name ?? `Campaign ${id}`);
  const typeName = (form: PublicForm) =>
    form.kind === 'card'
      ? 'Authorization card'
      : (schemas.find((schema) => schema.type === form.record_type)?.name_singular ?? form.record_type);

  /** Unpublishing closes the form and keeps its submissions (a card's audit trail); only an unused form is deleted. */
  const act = async (form: PublicForm, action: 'remove' | 'close' | 'open') => {
    setConfirming(null);
    try {
      if (action === 'remove') await api.remove(form.id);
      else await api.setOpen(form, action === 'open');
      const done = {
        remove: `"${form.title}" is deleted.`,
        close: `"${form.title}" is unpublished: its link no longer opens.`,
        open: `"${form.title}" is published again: its link opens.`,
      };
      notify(done[action], { type: 'info' });
      await reload();
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    }
  };

  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 }, maxWidth: 960 }}>
      <Title title="Public forms" />
      <Stack
        direction="row"
        useFlexGap
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 2 }}
      >
        <Typography color="text.secondary" sx={{ flex: '1 1 280px' }}>
          Forms anyone can fill in without signing in: a sign-up form of any record type, or an authorization card that
          counts toward a campaign once its signer confirms it.
        </Typography>
        <Button variant="contained" onClick={() => setEditing('new')}>
          Publish a form
        </Button>
      </Stack>
      {failure && <Alert severity="error">{failure}</Alert>}
      {forms && !forms.length && <Typography>No form is published yet.</Typography>}
      {forms?.map((form) => (
        <Card key={form.id} variant="outlined" component="section" aria-label={form.title}>
          <CardContent>
            <Stack spacing={1}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
                <Typography variant="h6" component="h2" sx={{ overflowWrap: 'anywhere' }}>
                  {form.title}
                </Typography>
                <Chip
                  size="small"
                  label={form.enabled ? 'Open' : 'Closed'}
                  color={form.enabled ? 'success' : 'default'}
                />
              </Stack>
              <Typography variant="body2">
                {typeName(form)}
                {campaignName(form.campaign_id) ? ` · for ${campaignName(form.campaign_id)}` : ''}
                {` · ${form.submissions ?? 0} submission${form.submissions === 1 ? '' : 's'}`}
              </Typography>
              <PublicLink slug={form.slug} />
              <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
                <Button
                  size="small"
                  variant="outlined"
                  component={RouterLink}
                  to={`/public-forms/${form.id}/submissions`}
                >
                  Submissions
                </Button>
                <Button size="small" onClick={() => setEditing(form)}>
                  Edit
                </Button>
                {form.enabled ? (
                  <Button size="small" color="error" onClick={() => setConfirming({ form, remove: false })}>
                    Unpublish
                  </Button>
                ) : (
                  <Button size="small" onClick={() => void act(form, 'open')}>
                    Publish again
                  </Button>
                )}
                {!form.submissions && (
                  <Button size="small" color="error" onClick={() => setConfirming({ form, remove: true })}>
                    Delete
                  </Button>
                )}
              </Stack>
            </Stack>
          </CardContent>
        </Card>
      ))}
      {editing && (
        <PublicFormDialog
          form={editing === 'new' ? null : editing}
          campaigns={campaigns}
          onClose={() => setEditing(null)}
          onSaved={(saved, created) => {
            setEditing(null);
            notify(created ? `Published: people can open /f/${saved.slug}.` : 'Saved.', { type: 'info' });
            void reload();
          }}
        />
      )}
      {confirming && (
        <Dialog open onClose={() => setConfirming(null)} aria-labelledby="confirm-title">
          <DialogTitle id="confirm-title">
            {confirming.remove ? 'Delete' : 'Unpublish'} "{confirming.form.title}"?
          </DialogTitle>
          <DialogContent>
            <Typography>
              {confirming.remove
                ? 'The form is removed for good. Nobody has sent it yet.'
                : 'Its link stops working at once. Its submissions and signed cards are kept, and you can publish it again.'}
            </Typography>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setConfirming(null)} autoFocus>
              Keep it
            </Button>
            <Button
              color="error"
              variant="contained"
              onClick={() => void act(confirming.form, confirming.remove ? 'remove' : 'close')}
            >
              {confirming.remove ? 'Delete' : 'Unpublish'}
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </Stack>
  );
}
