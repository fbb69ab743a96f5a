/** The automations (`/automations`): each in plain words, whether it is on, and its last run. */
import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { Title } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { useMainData } from '../app/hooks';
import { formatDate } from '../i18n/dates';
import { type Automation, useAutomationsApi } from './api';
import { actionInWords, RUN_STATUS_WORDS, triggerInWords } from './words';

export default function AutomationsPage() {
  const [automations, setAutomations] = useState<Automation[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { schemas } = useMainData();
  const automationsApi = useAutomationsApi();
  const typeName = (type: string | null) =>
    schemas.find((schema) => schema.type === type)?.name_singular.toLowerCase() ?? type ?? 'record';
  useEffect(() => {
    automationsApi.list().then(setAutomations, (reason: Error) => setError(reason.message));
  }, [automationsApi]);
  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 }, maxWidth: 960 }}>
      <Title title="Automations" />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between' }}>
        <Typography color="text.secondary">
          When something happens, do something: each automation acts with its maker's permissions.
        </Typography>
        <Stack direction="row" spacing={1}>
          <Button component={RouterLink} to="/webhooks" variant="outlined">
            Webhooks
          </Button>
          <Button component={RouterLink} to="/api-reference" variant="outlined">
            API reference
          </Button>
          <Button component={RouterLink} to="/automations/new" variant="contained" startIcon={<AddIcon />}>
            New automation
          </Button>
        </Stack>
      </Stack>
      {error && <Typography color="error">The automations could not be read: {error}</Typography>}
      {automations && !automations.length && <Typography>No automations yet.</Typography>}
      {automations?.map((automation) => (
        <Card key={automation.id} variant="outlined" component="section">
          <CardActionArea component={RouterLink} to={`/automations/${automation.id}`}>
            <CardContent>
              <Stack spacing={0.5}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                  <Typography variant="h6" component="h2">
                    {automation.name}
                  </Typography>
                  <Chip
                    size="small"
                    label={automation.enabled ? 'On' : 'Paused'}
                    color={automation.enabled ? 'success' : 'default'}
                  />
                  {automation.last_status && (
                    <Chip
                      size="small"
                      variant="outlined"
                      color={automation.last_status === 'failed' ? 'error' : 'default'}
                      label={`Last run: ${RUN_STATUS_WORDS[automation.last_status] ?? automation.last_status}${
                        automation.last_run_at ? `, ${formatDate(automation.last_run_at)}` : ''
                      }`}
                    />
                  )}
                </Stack>
                <Typography>{triggerInWords(automation.trigger, typeName(automation.record_type))}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {automation.actions.map(actionInWords).join('; then ')}
                </Typography>
              </Stack>
            </CardContent>
          </CardActionArea>
        </Card>
      ))}
    </Stack>
  );
}
