/**
 * One automation (`/automations/:id`, `new` to make one): its trigger, conditions and actions in a form of plain
 * choices, then pause, resume, "test with this record" and the run log with retry.
 */

import DeleteIcon from '@mui/icons-material/Delete';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useState } from 'react';
import { Title } from 'react-admin';
import { useNavigate, useParams } from 'react-router-dom';
import { useMainData } from '../app/hooks';
import { isApiError } from '../http/errors';
import { formatDateTime } from '../i18n/dates';
import { type Automation, type Run, type RunStep, useAutomationsApi } from './api';
import {
  ACTION_KINDS,
  type Action,
  actionInWords,
  type Condition,
  conditionInWords,
  linesFromValues,
  OPERATORS,
  RUN_STATUS_WORDS,
  TRIGGER_KINDS,
  type Trigger,
  triggerInWords,
  valuesFromLines,
  WEEKDAYS,
} from './words';

const blank: Partial<Automation> = {
  name: '',
  record_type: 'site',
  trigger: { kind: 'created' },
  conditions: null,
  actions: [{ kind: 'set_fields', values: {} }],
};

export default function AutomationPage() {
  const { id } = useParams();
  const isNew = id === 'new';
  const navigate = useNavigate();
  const { schemas } = useMainData();
  const automationsApi = useAutomationsApi();
  const [draft, setDraft] = useState<Partial<Automation>>(blank);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<string | null>(null);
  const [runs, setRuns] = useState<Run[]>([]);
  const [testId, setTestId] = useState('');
  const [test, setTest] = useState<{ conditions_met: boolean; steps: RunStep[] } | null>(null);

  const load = useCallback(async () => {
    if (isNew) return;
    setDraft(await automationsApi.show(Number(id)));
    setRuns(await automationsApi.runs(Number(id)));
  }, [automationsApi, id, isNew]);
  useEffect(() => {
    load().catch((error: Error) => setNotice(error.message));
  }, [load]);

  const trigger = draft.trigger ?? { kind: 'created' };
  const setTrigger = (patch: Partial<Trigger>) => setDraft({ ...draft, trigger: { ...trigger, ...patch } as Trigger });
  const conditions = draft.conditions?.all ?? [];
  const setConditions = (list: Condition[]) => setDraft({ ...draft, conditions: list.length ? { all: list } : null });
  const actions = draft.actions ?? [];
  const setAction = (index: number, action: Action) =>
    setDraft({ ...draft, actions: actions.map((old, at) => (at === index ? action : old)) });
  const typeName = schemas.find((schema) => schema.type === draft.record_type)?.name_singular.toLowerCase();
  const watchesRecords = !['schedule', 'webhook'].includes(trigger.kind);

  const save = async () => {
    setErrors({});
    const body = {
      name: draft.name,
      description: draft.description ?? null,
      record_type: draft.record_type || null,
      trigger: draft.trigger,
      conditions: draft.conditions ?? undefined,
      actions: draft.actions,
    };
    try {
      if (isNew) {
        const made = await automationsApi.create(body);
        setNotice(
          `Automation created. Its secret, for messages to its web address, is ${made.secret}: copy it now, it is not shown again.`,
        );
        void navigate(`/automations/${made.id}`);
      } else {
        setDraft(await automationsApi.save(Number(id), body));
        setNotice('Saved.');
      }
    } catch (error) {
      if (isApiError(error)) setErrors(error.body?.errors ?? {});
      setNotice(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 }, maxWidth: 960 }}>
      <Title title={isNew ? 'New automation' : (draft.name ?? 'Automation')} />
      {notice && <Alert severity={Object.keys(errors).length ? 'error' : 'info'}>{notice}</Alert>}
      <Card variant="outlined" component="section" aria-label="What it does">
        <CardContent>
          <Stack spacing={2}>
            <TextField
              label="Name"
              value={draft.name ?? ''}
              onChange={(event) => setDraft({ ...draft, name: event.target.value })}
              error={Boolean(errors.name)}
              helperText={errors.name}
              required
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                select
                label="When"
                value={trigger.kind}
                onChange={(event) => setDraft({ ...draft, trigger: { kind: event.target.value as Trigger['kind'] } })}
                sx={{ minWidth: 240 }}
              >
                {TRIGGER_KINDS.map(([kind, words]) => (
                  <MenuItem key={kind} value={kind}>
                    {words}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                select
                label="Records"
                value={draft.record_type ?? ''}
                onChange={(event) => setDraft({ ...draft, record_type: event.target.value || null })}
                error={Boolean(errors.record_type)}
                helperText={errors.record_type ?? (watchesRecords ? undefined : 'Optional for schedules and messages')}
                sx={{ minWidth: 200 }}
              >
                {!watchesRecords && <MenuItem value="">None</MenuItem>}
                {schemas.map((schema) => (
                  <MenuItem key={schema.type} value={schema.type}>
                    {schema.name_plural}
                  </MenuItem>
                ))}
              </TextField>
            </Stack>
            {(trigger.kind === 'field_changed' || trigger.kind === 'date_reached') && (
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <TextField
                  label="Field"
                  value={trigger.field ?? ''}
                  onChange={(event) => setTrigger({ field: event.target.value })}
                  error={Boolean(errors['trigger.field'])}
                  helperText={errors['trigger.field'] ?? 'Its key, such as bid_date'}
                />
                {trigger.kind === 'field_changed' ? (
                  <TextField
                    label="Changes to (optional)"
                    value={trigger.to === undefined ? '' : String(trigger.to)}
                    onChange={(event) => setTrigger({ to: event.target.value === '' ? undefined : event.target.value })}
                  />
                ) : (
                  <TextField
                    label="Days after the date (negative: before)"
                    type="number"
                    value={Number(trigger.days ?? 0)}
                    onChange={(event) => setTrigger({ days: Number(event.target.value) })}
                  />
                )}
              </Stack>
            )}
            {trigger.kind === 'schedule' && (
              <Stack spacing={1}>
                <TextField
                  label="At (in the organization's time zone)"
                  value={trigger.at ?? '07:00'}
                  onChange={(event) => setTrigger({ at: event.target.value })}
                  helperText={errors['trigger.at'] ?? 'Such as 07:00'}
                  sx={{ maxWidth: 240 }}
                />
                <Stack direction="row" sx={{ flexWrap: 'wrap' }}>
                  {WEEKDAYS.map((day) => {
                    const days = Array.isArray(trigger.days) ? trigger.days : [];
                    return (
                      <FormControlLabel
                        key={day}
                        label={day}
                        control={
                          <Checkbox
                            checked={days.includes(day)}
                            onChange={(event) =>
                              setTrigger({
                                days: event.target.checked ? [...days, day] : days.filter((d) => d !== day),
                              })
                            }
                          />
                        }
                      />
                    );
                  })}
                </Stack>
                <Typography variant="body2" color="text.secondary">
                  No day ticked: every day.
                </Typography>
              </Stack>
            )}
            <Typography>{triggerInWords({ ...trigger, at: trigger.at ?? '07:00' }, typeName)}</Typography>

            <Typography variant="h6" component="h2">
              Only if
            </Typography>
            {conditions.map((condition, index) => (
              <Stack key={index} direction={{ xs: 'column', sm: 'row' }} spacing={1}>
                <TextField
                  label="Field"
                  value={condition.field}
                  onChange={(event) =>
                    setConditions(conditions.map((c, at) => (at === index ? { ...c, field: event.target.value } : c)))
                  }
                />
                <TextField
                  select
                  label="Test"
                  value={condition.op}
                  onChange={(event) =>
                    setConditions(conditions.map((c, at) => (at === index ? { ...c, op: event.target.value } : c)))
                  }
                  sx={{ minWidth: 160 }}
                >
                  {OPERATORS.map(([op, words]) => (
                    <MenuItem key={op} value={op}>
                      {words}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField
                  label="Value"
                  value={condition.value === undefined ? '' : String(condition.value)}
                  onChange={(event) =>
                    setConditions(conditions.map((c, at) => (at === index ? { ...c, value: event.target.value } : c)))
                  }
                />
                <IconButton
                  aria-label={`Remove the condition ${conditionInWords(condition)}`}
                  onClick={() => setConditions(conditions.filter((_, at) => at !== index))}
                >
                  <DeleteIcon />
                </IconButton>
              </Stack>
            ))}
            {errors.conditions && <Typography color="error">{errors.conditions}</Typography>}
            <div>
              <Button onClick={() => setConditions([...conditions, { field: 'type', op: 'eq', value: '' }])}>
                Add a condition
              </Button>
            </div>

            <Typography variant="h6" component="h2">
              Then
            </Typography>
            {actions.map((action, index) => (
              <Stack key={index} spacing={1} sx={{ borderLeft: 3, borderColor: 'divider', pl: 1.5 }}>
                {action.kind === 'branch' ? (
                  <Typography>{actionInWords(action)} (branches are edited through the API)</Typography>
                ) : (
                  <ActionFields
                    action={action}
                    errors={errors}
                    prefix={`actions.${index}`}
                    onChange={(next) => setAction(index, next)}
                  />
                )}
                <div>
                  <Button
                    color="error"
                    onClick={() => setDraft({ ...draft, actions: actions.filter((_, at) => at !== index) })}
                  >
                    Remove this action
                  </Button>
                </div>
              </Stack>
            ))}
            <div>
              <Button
                onClick={() =>
                  setDraft({ ...draft, actions: [...actions, { kind: 'notify', title: '', record_owner: true }] })
                }
              >
                Add an action
              </Button>
            </div>
            <Typography variant="body2" color="text.secondary">
              Values may use the record's fields: {'{{site.name}}'}, {'{{site.user_id}}'} (its organizer), {'{{today}}'}
              .
            </Typography>
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>
              <Button variant="contained" onClick={() => void save()}>
                {isNew ? 'Create' : 'Save'}
              </Button>
              {!isNew && (
                <>
                  <Button
                    variant="outlined"
                    onClick={async () => setDraft(await automationsApi.setEnabled(Number(id), !draft.enabled))}
                  >
                    {draft.enabled ? 'Pause' : 'Resume'}
                  </Button>
                  <Button
                    color="error"
                    onClick={async () => {
                      await automationsApi.remove(Number(id));
                      void navigate('/automations');
                    }}
                  >
                    Delete
                  </Button>
                </>
              )}
            </Stack>
          </Stack>
        </CardContent>
      </Card>

      {!isNew && (
        <Card variant="outlined" component="section" aria-label="Test with a record">
          <CardContent>
            <Stack spacing={1}>
              <Typography variant="h6" component="h2">
                Test with a record
              </Typography>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
                <TextField label="Record id" value={testId} onChange={(event) => setTestId(event.target.value)} />
                <Button
                  variant="outlined"
                  onClick={async () => {
                    try {
                      setTest(await automationsApi.test(Number(id), testId ? Number(testId) : null));
                    } catch (error) {
                      setNotice(error instanceof Error ? error.message : String(error));
                    }
                  }}
                >
                  Show what would happen
                </Button>
              </Stack>
              {test && (
                <Stack component="ol" sx={{ pl: 3, m: 0 }}>
                  {!test.conditions_met && <li>The record does not meet the conditions: nothing would be done.</li>}
                  {test.steps.map((step) => (
                    <li key={step.path}>{stepInWords(step, 'would')}</li>
                  ))}
                </Stack>
              )}
            </Stack>
          </CardContent>
        </Card>
      )}

      {!isNew && (
        <Card variant="outlined" component="section" aria-label="Run log">
          <CardContent>
            <Stack spacing={1.5}>
              <Typography variant="h6" component="h2">
                Run log
              </Typography>
              {!runs.length && <Typography>No runs yet.</Typography>}
              {runs.map((run) => (
                <Stack key={run.id} spacing={0.5} sx={{ borderBottom: 1, borderColor: 'divider', pb: 1 }}>
                  <Typography>
                    <strong>{RUN_STATUS_WORDS[run.status] ?? run.status}</strong> · {formatDateTime(run.created_at)}
                    {run.trigger.record_id ? ` · record ${run.trigger.record_id}` : ''}
                  </Typography>
                  {run.steps.map((step) => (
                    <Typography key={step.path} variant="body2">
                      {formatDateTime(step.at)}: {stepInWords(step, 'done')}
                    </Typography>
                  ))}
                  {run.error && (
                    <Typography variant="body2" color="error">
                      {run.error}
                    </Typography>
                  )}
                  {run.status === 'failed' && (
                    <div>
                      <Button
                        size="small"
                        onClick={async () => {
                          await automationsApi.retry(Number(id), run.id);
                          setRuns(await automationsApi.runs(Number(id)));
                        }}
                      >
                        Try again
                      </Button>
                    </div>
                  )}
                </Stack>
              ))}
            </Stack>
          </CardContent>
        </Card>
      )}
    </Stack>
  );
}

function stepInWords(step: RunStep, tense: 'would' | 'done'): string {
  if (step.kind === 'branch') return `Test ${step.outcome === 'yes' ? 'met' : 'not met'}`;
  const detail = (step.detail ?? {}) as Record<string, unknown>;
  const words = actionInWords({ kind: step.kind, ...detail, ...(detail.people ? { people: detail.people } : {}) });
  if (step.outcome === 'failed') return `${words}: failed (${step.error ?? ''})`;
  return tense === 'would' ? `Would: ${words}` : words;
}

/** The fields of one action, by its kind. */
function ActionFields({
  action,
  errors,
  prefix,
  onChange,
}: {
  action: Action;
  errors: Record<string, string>;
  prefix: string;
  onChange: (action: Action) => void;
}) {
  const text = (key: string, label: string, multiline = false) => (
    <TextField
      label={label}
      value={String(action[key] ?? '')}
      multiline={multiline}
      minRows={multiline ? 2 : undefined}
      onChange={(event) => onChange({ ...action, [key]: event.target.value })}
      error={Boolean(errors[`${prefix}.${key}`])}
      helperText={errors[`${prefix}.${key}`]}
    />
  );
  const values = (
    <TextField
      label="Values, one a line: field = value"
      multiline
      minRows={2}
      defaultValue={linesFromValues(action.values)}
      onBlur={(event) => onChange({ ...action, values: valuesFromLines(event.target.value) })}
      error={Boolean(errors[prefix])}
      helperText={errors[prefix]}
    />
  );
  return (
    <Stack spacing={1}>
      <TextField
        select
        label="Do"
        value={action.kind}
        onChange={(event) => onChange({ kind: event.target.value })}
        sx={{ maxWidth: 320 }}
      >
        {ACTION_KINDS.map(([kind, words]) => (
          <MenuItem key={kind} value={kind}>
            {words}
          </MenuItem>
        ))}
      </TextField>
      {action.kind === 'set_fields' && values}
      {action.kind === 'create_record' && (
        <>
          {text('record_type', 'Record type (such as task or note)')}
          {values}
        </>
      )}
      {action.kind === 'notify' && (
        <>
          {text('title', 'Title')}
          {text('body', 'Text', true)}
          {text('role', 'Everyone with the role (its slug, optional)')}
          <FormControlLabel
            label="The record's owner"
            control={
              <Checkbox
                checked={Boolean(action.record_owner)}
                onChange={(event) => onChange({ ...action, record_owner: event.target.checked })}
              />
            }
          />
        </>
      )}
      {action.kind === 'email' && (
        <>
          <TextField
            label="To (addresses, separated by commas)"
            value={((action.to as string[] | undefined) ?? []).join(', ')}
            onChange={(event) =>
              onChange({
                ...action,
                to: event.target.value
                  .split(',')
                  .map((to) => to.trim())
                  .filter(Boolean),
              })
            }
          />
          {text('subject', 'Subject')}
          {text('text', 'Text', true)}
        </>
      )}
      {action.kind === 'webhook' && text('url', 'Web address (https://...)')}
    </Stack>
  );
}
