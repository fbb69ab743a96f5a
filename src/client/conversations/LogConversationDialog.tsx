/**
 * "Log a conversation" in two taps: open it, tap the outcome. How it was had (a call unless said otherwise) and when
 * (now) are filled in; notes, the assessment and a next step (which becomes a task for whoever is named) are one tap
 * away under "More", and tapping an outcome saves them too. Saved through POST /api/conversations, which writes the
 * conversation and its task together; a refusal keeps everything typed and says why.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { RaRecord } from 'react-admin';
import { type Person as Assignee, AssigneePicker } from '../assignees/AssigneePicker';
import { useNarrow } from '../layout/useNarrow';
import { useRecordMutations } from '../records/mutations';
import { useListInOrder } from './lists';
import { CHANNELS, type Channel, type ConversationContext, type PersonRef, personField } from './shared';

export function LogConversationDialog({
  open,
  person,
  context = {},
  onClose,
  onLogged,
}: {
  open: boolean;
  person: PersonRef | null;
  context?: ConversationContext;
  onClose: () => void;
  onLogged?: (conversation: RaRecord) => void;
}) {
  const narrow = useNarrow();
  const outcomes = useListInOrder('conversation-outcomes');
  const levels = useListInOrder('assessment-levels');
  const { create } = useRecordMutations('conversations');
  const [channel, setChannel] = useState<Channel>(context.channel ?? 'call');
  const [more, setMore] = useState(false);
  const [notes, setNotes] = useState('');
  const [assessment, setAssessment] = useState<string | null>(null);
  const [nextStep, setNextStep] = useState('');
  const [nextDue, setNextDue] = useState('');
  const [nextFor, setNextFor] = useState<Assignee | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const reset = () => {
    setMore(false);
    setNotes('');
    setAssessment(null);
    setNextStep('');
    setNextDue('');
    setNextFor(null);
    setErrors({});
  };

  const save = async (outcome: string | null) => {
    if (!person || busy) return;
    setBusy(true);
    const data: Record<string, unknown> = {
      [personField(person.type)]: person.id,
      channel,
      had_at: new Date().toISOString(),
      outcome,
      ...(notes.trim() ? { notes } : {}),
      ...(assessment ? { assessment } : {}),
      ...(nextStep.trim()
        ? {
            next_step: nextStep.trim(),
            next_step_due: nextDue ? new Date(nextDue).toISOString() : null,
            next_step_user_id: nextFor?.id ?? null,
          }
        : {}),
      ...(context.site_id ? { site_id: context.site_id } : {}),
      ...(context.task_id ? { task_id: context.task_id } : {}),
      ...(context.extra ?? {}),
    };
    const result = await create(data, 'Conversation created successfully.');
    setBusy(false);
    if (result.record) {
      reset();
      onLogged?.(result.record);
      onClose();
    } else {
      setErrors(result.errors ?? {});
      // A refusal of a detail opens the details, where its message is.
      if (result.errors && Object.keys(result.errors).some((key) => key.startsWith('next_step') || key === 'notes'))
        setMore(true);
    }
  };

  const general = Object.entries(errors).filter(
    ([key]) => !['notes', 'next_step', 'next_step_due', 'next_step_user_id'].includes(key),
  );

  return (
    <Dialog
      open={open && Boolean(person)}
      onClose={busy ? undefined : onClose}
      fullScreen={narrow}
      fullWidth
      maxWidth="sm"
      aria-labelledby="log-conversation-title"
      data-testid="log-conversation"
    >
      <DialogTitle id="log-conversation-title">
        Log a conversation{person?.name ? ` with ${person.name}` : ''}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 0.5 }}>
          <ToggleButtonGroup
            value={channel}
            exclusive
            onChange={(_event, value: Channel | null) => value && setChannel(value)}
            aria-label="How"
            size="small"
            sx={{ flexWrap: 'wrap' }}
          >
            {CHANNELS.map((choice) => (
              <ToggleButton key={choice.id} value={choice.id} sx={{ minHeight: 44, px: 2 }}>
                {choice.name}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          <Typography variant="subtitle2" component="h3">
            Outcome: tap to save
          </Typography>
          <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap' }} data-testid="conversation-outcomes">
            {outcomes.map((outcome) => (
              <Button
                key={String(outcome.id)}
                variant="outlined"
                disabled={busy}
                onClick={() => void save(String(outcome.slug))}
                sx={{ minHeight: 48, flex: { xs: '1 1 40%', sm: '0 0 auto' } }}
                data-outcome={String(outcome.slug)}
              >
                {outcome.name}
              </Button>
            ))}
          </Stack>
          {general.length > 0 && (
            <Alert severity="error" role="alert">
              {general.map(([, message]) => message).join(' ')}
            </Alert>
          )}
          <Button
            onClick={() => setMore((open) => !open)}
            aria-expanded={more}
            sx={{ alignSelf: 'flex-start' }}
            data-testid="conversation-more"
          >
            {more ? 'Fewer details' : 'More: notes, assessment, next step'}
          </Button>
          <Collapse in={more} unmountOnExit>
            <Stack spacing={2}>
              <TextField
                label="Notes"
                value={notes}
                onChange={(event) => setNotes(event.target.value)}
                multiline
                minRows={3}
                fullWidth
                error={Boolean(errors.notes)}
                helperText={errors.notes}
              />
              {levels.length > 0 && (
                <Stack spacing={0.5}>
                  <Typography variant="subtitle2" component="h3" id="conversation-assessment">
                    Assessment
                  </Typography>
                  <ToggleButtonGroup
                    value={assessment}
                    exclusive
                    onChange={(_event, value: string | null) => setAssessment(value)}
                    aria-labelledby="conversation-assessment"
                    size="small"
                    sx={{ flexWrap: 'wrap' }}
                  >
                    {levels.map((level) => (
                      <ToggleButton
                        key={String(level.id)}
                        value={String(level.slug)}
                        sx={{ minHeight: 44, textTransform: 'none' }}
                      >
                        {String(level.slug)} {level.name}
                      </ToggleButton>
                    ))}
                  </ToggleButtonGroup>
                </Stack>
              )}
              <TextField
                label="Next step"
                value={nextStep}
                onChange={(event) => setNextStep(event.target.value)}
                helperText={errors.next_step ?? 'Becomes a task for whoever you name (you, if no one).'}
                error={Boolean(errors.next_step)}
                fullWidth
                slotProps={{ htmlInput: { maxLength: 200 } }}
              />
              {nextStep.trim() && (
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
                  <TextField
                    label="Due"
                    type="datetime-local"
                    value={nextDue}
                    onChange={(event) => setNextDue(event.target.value)}
                    slotProps={{ inputLabel: { shrink: true } }}
                    size="small"
                    error={Boolean(errors.next_step_due)}
                    helperText={errors.next_step_due}
                  />
                  <AssigneePicker
                    value={nextFor}
                    onChange={setNextFor}
                    label="For"
                    error={errors.next_step_user_id}
                    testId="next-step-for"
                  />
                </Stack>
              )}
            </Stack>
          </Collapse>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button onClick={() => void save(null)} disabled={busy} data-testid="save-without-outcome">
          Save without an outcome
        </Button>
      </DialogActions>
    </Dialog>
  );
}
