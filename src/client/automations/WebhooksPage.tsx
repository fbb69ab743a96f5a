/** Outgoing webhooks (`/webhooks`): make one (its secret shown once), and each one's deliveries, paused or not. */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useState } from 'react';
import { Title } from 'react-admin';
import { useMainData } from '../app/hooks';
import { isApiError } from '../http/errors';
import { formatDateTime } from '../i18n/dates';
import { type Delivery, useWebhooksApi, type Webhook } from './api';

const EVENTS = ['created', 'updated', 'deleted'];

export default function WebhooksPage() {
  const { schemas } = useMainData();
  const webhooksApi = useWebhooksApi();
  const [webhooks, setWebhooks] = useState<Webhook[]>([]);
  const [draft, setDraft] = useState({ name: '', url: '', record_type: 'site', events: ['created', 'updated'] });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<{ severity: 'info' | 'error'; text: string } | null>(null);
  const reload = useCallback(async () => setWebhooks(await webhooksApi.list()), [webhooksApi]);
  useEffect(() => {
    reload().catch((error: Error) => setNotice({ severity: 'error', text: error.message }));
  }, [reload]);

  const create = async () => {
    setErrors({});
    try {
      const made = await webhooksApi.create(draft);
      setNotice({
        severity: 'info',
        text: `Webhook created. Its signing secret is ${made.secret}: copy it now, it is not shown again.`,
      });
      await reload();
    } catch (error) {
      if (isApiError(error)) setErrors(error.body?.errors ?? {});
      setNotice({ severity: 'error', text: error instanceof Error ? error.message : String(error) });
    }
  };

  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 }, maxWidth: 960 }}>
      <Title title="Webhooks" />
      <Typography color="text.secondary">
        Tell another system when records change: each message is signed (Standard Webhooks) and shows only what you may
        read. A receiver that keeps failing is paused, and you are told.
      </Typography>
      {notice && <Alert severity={notice.severity}>{notice.text}</Alert>}
      <Card variant="outlined" component="section" aria-label="New webhook">
        <CardContent>
          <Stack spacing={2}>
            <Typography variant="h6" component="h2">
              New webhook
            </Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label="Name"
                value={draft.name}
                onChange={(event) => setDraft({ ...draft, name: event.target.value })}
                error={Boolean(errors.name)}
                helperText={errors.name}
              />
              <TextField
                select
                label="Records"
                value={draft.record_type}
                onChange={(event) => setDraft({ ...draft, record_type: event.target.value })}
                sx={{ minWidth: 200 }}
              >
                {schemas.map((schema) => (
                  <MenuItem key={schema.type} value={schema.type}>
                    {schema.name_plural}
                  </MenuItem>
                ))}
              </TextField>
            </Stack>
            <TextField
              label="Receiver's web address"
              value={draft.url}
              onChange={(event) => setDraft({ ...draft, url: event.target.value })}
              error={Boolean(errors.url)}
              helperText={errors.url ?? 'https://...'}
            />
            <Stack direction="row" sx={{ flexWrap: 'wrap' }}>
              {EVENTS.map((event) => (
                <FormControlLabel
                  key={event}
                  label={`When one is ${event}`}
                  control={
                    <Checkbox
                      checked={draft.events.includes(event)}
                      onChange={(change) =>
                        setDraft({
                          ...draft,
                          events: change.target.checked
                            ? [...draft.events, event]
                            : draft.events.filter((e) => e !== event),
                        })
                      }
                    />
                  }
                />
              ))}
            </Stack>
            <div>
              <Button variant="contained" onClick={() => void create()}>
                Create
              </Button>
            </div>
          </Stack>
        </CardContent>
      </Card>
      {webhooks.map((webhook) => (
        <WebhookCard key={webhook.id} webhook={webhook} onChange={() => void reload()} />
      ))}
    </Stack>
  );
}

function WebhookCard({ webhook, onChange }: { webhook: Webhook; onChange: () => void }) {
  const [deliveries, setDeliveries] = useState<Delivery[] | null>(null);
  const webhooksApi = useWebhooksApi();
  return (
    <Card variant="outlined" component="section" aria-label={webhook.name}>
      <CardContent>
        <Stack spacing={1}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography variant="h6" component="h2">
              {webhook.name}
            </Typography>
            <Chip
              size="small"
              label={webhook.paused_at ? `Paused after ${webhook.failures} failures` : 'On'}
              color={webhook.paused_at ? 'warning' : 'success'}
            />
          </Stack>
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {webhook.record_type}: {webhook.events.join(', ')} → {webhook.url}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>
            <Button size="small" onClick={async () => setDeliveries(await webhooksApi.deliveries(webhook.id))}>
              Show deliveries
            </Button>
            {webhook.paused_at && (
              <Button
                size="small"
                variant="outlined"
                onClick={async () => {
                  await webhooksApi.resume(webhook.id);
                  onChange();
                }}
              >
                Resume
              </Button>
            )}
            <Button
              size="small"
              color="error"
              onClick={async () => {
                await webhooksApi.remove(webhook.id);
                onChange();
              }}
            >
              Delete
            </Button>
          </Stack>
          {deliveries && !deliveries.length && <Typography variant="body2">No messages yet.</Typography>}
          {deliveries?.map((delivery) => (
            <Typography key={delivery.id} variant="body2">
              {formatDateTime(delivery.created_at)} · {delivery.event} · {delivery.status}, {delivery.attempts} attempt
              {delivery.attempts === 1 ? '' : 's'}
              {delivery.response_status ? ` · answered ${delivery.response_status} in ${delivery.response_ms} ms` : ''}
              {delivery.error ? ` · ${delivery.error}` : ''}
            </Typography>
          ))}
        </Stack>
      </CardContent>
    </Card>
  );
}
