/**
 * One conversation: the messages, the answer being written (streamed), suggested questions on an empty conversation,
 * and the box to ask with Send and Stop. On a record's page the question carries that record, so "this" means it.
 */

import SendIcon from '@mui/icons-material/Send';
import StopIcon from '@mui/icons-material/Stop';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useGetList, useNotify } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { useMainData } from '../app/hooks';
import { useAppDataProvider } from '../records/hooks';
import { type AssistantStatus, askQuestion, MESSAGES, type Message, stopAnswer, THREADS } from './api';
import { Markdown } from './Markdown';
import { ProposalCard } from './ProposalCard';
import { recordFromPath } from './recordContext';
import { SaveViewButton } from './SaveViewButton';
import { applyEvent, type Streaming } from './streaming';
import { useAssistantEvents } from './useAssistantEvents';

/** How often an awaited answer is looked for besides its realtime events. */
const ANSWER_POLL_MS = 3000;

/** How a tool step is named under an answer. */
const STEP_NAMES: Record<string, string> = {
  record_types: 'record types',
  search_records: 'searched',
  get_record: 'read a record',
  count_records: 'counted',
  market_share: 'market share report',
  my_tasks: 'your tasks',
  records_near: 'places',
  propose_change: 'prepared a change',
};

function stepsText(steps: Message[]): string {
  const parts = steps.map((step) => {
    const call = step.tool_calls?.[0];
    if (!call) return null;
    const args = (call.arguments ?? {}) as { type?: string };
    return `${STEP_NAMES[call.name] ?? call.name}${args.type ? ` (${args.type})` : ''}`;
  });
  return [...new Set(parts.filter(Boolean))].join(' · ');
}

function Bubble({ mine, children, testId }: { mine: boolean; children: React.ReactNode; testId: string }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: mine ? 'flex-end' : 'flex-start', mb: 1.5 }} data-testid={testId}>
      <Box
        sx={{
          maxWidth: mine ? '85%' : '100%',
          px: 1.5,
          py: mine ? 1 : 0.5,
          borderRadius: 2,
          bgcolor: mine ? 'primary.main' : 'transparent',
          color: mine ? 'primary.contrastText' : 'text.primary',
          whiteSpace: mine ? 'pre-wrap' : undefined,
          overflowWrap: 'anywhere',
          minWidth: 0,
        }}
      >
        {children}
      </Box>
    </Box>
  );
}

export interface ChatProps {
  threadId: number | null;
  /** A conversation was started by the first question. */
  onThread: (id: number) => void;
  /** A link in an answer was followed (the panel closes on a small screen). */
  onNavigate?: () => void;
}

export function Chat({ threadId, onThread, onNavigate }: ChatProps) {
  const dp = useAppDataProvider();
  const notify = useNotify();
  const { pathname } = useLocation();
  const { schemas } = useMainData();
  const context = useMemo(
    () => recordFromPath(pathname, schemas as Array<{ type: string; resource?: string }>),
    [pathname, schemas],
  );
  const status = useQuery({
    queryKey: ['assistant-status', context?.type, context?.id],
    queryFn: () => dp.assistantStatus<AssistantStatus>(context),
    staleTime: 60_000,
  });
  const [streams, setStreams] = useState<ReadonlyMap<number, Streaming>>(new Map());
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  /** Why the last question could not be asked (too many a minute, ...): shown above the question box. */
  const [problem, setProblem] = useState<string | null>(null);
  const [waitingFor, setWaitingFor] = useState<number | null>(null);
  // The answer arrives by realtime events; while one is awaited the list is also read every few seconds, so an event
  // missed (the connection not yet open, or dropped) never leaves the person waiting.
  const { data: messages = [], refetch } = useGetList<Message>(
    MESSAGES,
    { filter: { thread_id: threadId }, sort: { field: 'id', order: 'ASC' }, pagination: { page: 1, perPage: 500 } },
    { enabled: threadId !== null, refetchInterval: waitingFor !== null ? ANSWER_POLL_MS : false },
  );
  const end = useRef<HTMLDivElement>(null);

  const queryClient = useQueryClient();
  useAssistantEvents((event) => {
    if (event.thread_id !== threadId) return;
    setStreams((current) => applyEvent(current, event));
    if (event.status === 'streaming') return;
    void refetch();
    // The conversation changed with its answer (the time of its last message): it is read again here rather than left
    // to the conversation's own realtime event, which a busy server may send later.
    void queryClient.invalidateQueries({ queryKey: [THREADS] });
  });

  const shown = messages.filter((m) => m.role !== 'tool' && m.thread_id === threadId);
  const answered = new Set(messages.filter((m) => m.role === 'assistant').map((m) => m.reply_to));
  const stepsFor = (question: number | null) => messages.filter((m) => m.role === 'tool' && m.reply_to === question);
  const open = shown.filter((m) => m.role === 'user' && !answered.has(m.id));
  const running =
    waitingFor !== null && !answered.has(waitingFor)
      ? waitingFor
      : (open.find((m) => streams.get(m.id)?.status === 'streaming')?.id ?? null);
  const busy = sending || running !== null;

  useEffect(() => {
    if (waitingFor !== null && answered.has(waitingFor)) setWaitingFor(null);
  }, [answered, waitingFor]);
  // A conversation opened on a question still unanswered (the first question of a new conversation is asked before
  // the panel turns to it) waits for its answer as if asked here: its events may have come before this listened.
  const lastOpen = open.length ? open[open.length - 1]!.id : null;
  useEffect(() => {
    if (waitingFor === null && lastOpen !== null && !sending) setWaitingFor(lastOpen);
  }, [lastOpen, sending, waitingFor]);
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [shown.length, streams, running]);

  const send = async (question = text) => {
    const content = question.trim();
    if (!content || busy) return;
    setProblem(null);
    setSending(true);
    try {
      if (threadId === null) {
        // A new conversation: the question is asked first, then the panel turns to the conversation, which opens on it.
        const created = await dp.create(THREADS, { data: {} });
        const thread = Number(created.data.id);
        await askQuestion(dp, { thread_id: thread, content, context });
        onThread(thread);
        return;
      }
      const asked = await askQuestion(dp, { thread_id: threadId, content, context });
      setText('');
      setWaitingFor(asked.id);
      await refetch();
    } catch (error) {
      // Said inside the panel, above the question box (a notice at the foot of the screen would cover the box).
      setProblem((error as Error).message);
    } finally {
      setSending(false);
    }
  };

  const stop = async () => {
    if (running === null) return;
    try {
      await stopAnswer(dp, running);
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void send();
    }
  };

  const empty = threadId === null || (messages.length === 0 && !sending);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', flex: 1 }} data-testid="assistant-chat">
      <Box sx={{ flex: 1 }} aria-live="polite">
        {empty ? (
          <Box sx={{ py: 1 }} data-testid="assistant-suggestions">
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
              {status.data?.mode === 'model'
                ? `Ask about your organization's records. Answers come from ${status.data.model}, using only the records you may read.`
                : 'Ask about your organization\u2019s records. Answers use only the records you may read, and nothing changes without your approval.'}
            </Typography>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
              {(status.data?.suggestions ?? []).map((suggestion) => (
                <Chip
                  key={suggestion}
                  label={suggestion}
                  onClick={() => void send(suggestion)}
                  variant="outlined"
                  sx={{ height: 'auto', py: 0.5, '& .MuiChip-label': { whiteSpace: 'normal' } }}
                />
              ))}
            </Box>
          </Box>
        ) : null}
        {shown.map((message) => {
          if (message.role === 'user') {
            const stream = streams.get(message.id);
            const waiting = !answered.has(message.id) && (waitingFor === message.id || stream);
            return (
              <Box key={message.id}>
                <Bubble mine testId="assistant-question">
                  {message.content}
                </Bubble>
                {waiting ? (
                  <Bubble mine={false} testId="assistant-streaming">
                    {stream?.text ? (
                      <Markdown text={stream.text} onNavigate={onNavigate} />
                    ) : (
                      <CircularProgress size={18} aria-label="Answering" sx={{ my: 1 }} />
                    )}
                  </Bubble>
                ) : null}
              </Box>
            );
          }
          const steps = stepsText(stepsFor(message.reply_to));
          const tokens = message.prompt_tokens + message.completion_tokens;
          return (
            <Bubble key={message.id} mine={false} testId="assistant-answer">
              <Markdown text={message.content} onNavigate={onNavigate} onAsk={(question) => void send(question)} />
              {message.proposal ? (
                <ProposalCard message={message} onDecided={() => void refetch()} onNavigate={onNavigate} />
              ) : null}
              {message.list ? <SaveViewButton list={message.list} onNavigate={onNavigate} /> : null}
              <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 0.5 }}>
                {[
                  message.status === 'stopped' ? 'Stopped' : message.status === 'failed' ? 'Failed' : null,
                  message.model === 'built-in' ? 'Built-in assistant' : message.model,
                  tokens ? `${tokens.toLocaleString('en-US')} tokens` : null,
                  steps || null,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </Typography>
            </Bubble>
          );
        })}
        <div ref={end} />
      </Box>
      <Box sx={{ position: 'sticky', bottom: 0, bgcolor: 'background.paper', pt: 1, pb: 0.5 }}>
        {status.data?.context ? (
          <Typography
            variant="caption"
            color="text.secondary"
            component="div"
            sx={{ mb: 0.5 }}
            data-testid="assistant-context"
          >
            “This” means {status.data.context.label}
          </Typography>
        ) : null}
        {problem ? (
          <Alert severity="warning" onClose={() => setProblem(null)} sx={{ mb: 1 }} data-testid="assistant-problem">
            {problem}
          </Alert>
        ) : null}
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-end' }}>
          <TextField
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onKeyDown}
            placeholder="Ask a question"
            multiline
            maxRows={6}
            fullWidth
            size="small"
            slotProps={{ htmlInput: { 'aria-label': 'Ask the assistant', maxLength: 4000 } }}
          />
          {running !== null ? (
            <Tooltip title="Stop">
              <IconButton onClick={() => void stop()} aria-label="Stop" color="error">
                <StopIcon />
              </IconButton>
            </Tooltip>
          ) : (
            <Button
              variant="contained"
              onClick={() => void send()}
              disabled={busy || !text.trim()}
              aria-label="Send"
              sx={{ minWidth: 0, px: 1.5 }}
            >
              <SendIcon fontSize="small" />
            </Button>
          )}
        </Box>
      </Box>
    </Box>
  );
}
