/** The assistant's calls beyond the generic resources (docs/assistant.md): asking, stopping, deciding, status. */
import type { AppDataProvider } from '../providers/dataProvider';

export interface RecordRef {
  type: string;
  id: number;
  label?: string;
  url?: string;
}

export interface ProposalLine {
  0: string;
  1: string | null;
  2: string;
}

export interface Proposal {
  kind: 'create_task' | 'log_note' | 'update_field' | 'assign';
  summary: string;
  record?: RecordRef | null;
  lines: Array<[string, string | null, string]>;
  status: 'pending' | 'approved' | 'rejected';
  result?: RecordRef | null;
  error?: string | null;
}

/** The list an answer counted or listed (server assistant/resources.ts answerListShape): "Save as view" saves it. */
export interface AnswerList {
  type: string;
  mode: 'count' | 'list' | 'group';
  title: string;
  filter: Record<string, unknown>;
  filters: Record<string, unknown>;
}

export interface Message {
  id: number;
  thread_id: number;
  role: 'user' | 'assistant' | 'tool';
  content: string;
  reply_to: number | null;
  status: 'complete' | 'stopped' | 'failed';
  outcome: 'answered' | 'refused' | 'failed' | null;
  context: RecordRef | null;
  citations: Array<Required<Pick<RecordRef, 'type' | 'id' | 'label' | 'url'>>>;
  proposal: Proposal | null;
  list?: AnswerList | null;
  tool_calls: Array<{ id: string; name: string; arguments: unknown }> | null;
  prompt_tokens: number;
  completion_tokens: number;
  model: string | null;
  created_at: string;
}

export interface Thread {
  id: number;
  title: string;
  last_message_at: string | null;
  created_at: string;
  deleted_at: string | null;
}

export interface AssistantStatus {
  mode: 'built-in' | 'model';
  model: string;
  base_url?: string | null;
  context: RecordRef | null;
  suggestions: string[];
}

export interface ConnectionCheck {
  ok: boolean;
  elapsed_ms: number;
  steps: Array<{ name: string; ok: boolean; detail: string }>;
}

export const THREADS = 'assistant/threads';
export const MESSAGES = 'assistant/messages';

export async function askQuestion(
  dp: AppDataProvider,
  question: { thread_id: number; content: string; context?: { type: string; id: number } | null },
): Promise<Message> {
  const { data } = await dp.create(MESSAGES, { data: question });
  return data as Message;
}

export const stopAnswer = (dp: AppDataProvider, questionId: number) =>
  dp.action(MESSAGES, { id: questionId, action: 'stop' });

export async function decide(
  dp: AppDataProvider,
  messageId: number,
  decision: 'approve' | 'reject',
): Promise<{ data: Message; message?: string }> {
  const result = await dp.action(MESSAGES, { id: messageId, action: decision });
  return { data: result.data as Message, message: result.meta?.message };
}
