/** The answers being written, by question: pieces put in place by their offset (pure, unit-tested). */
import type { AssistantMessageEvent } from './useAssistantEvents';

export interface Streaming {
  text: string;
  status: AssistantMessageEvent['status'];
}

export function applyEvent(
  current: ReadonlyMap<number, Streaming>,
  event: AssistantMessageEvent,
): Map<number, Streaming> {
  const next = new Map(current);
  const before = next.get(event.reply_to) ?? { text: '', status: 'streaming' as const };
  if (event.status === 'streaming' && typeof event.delta === 'string') {
    const offset = Math.min(event.offset ?? before.text.length, before.text.length);
    next.set(event.reply_to, { text: before.text.slice(0, offset) + event.delta, status: 'streaming' });
  } else {
    next.set(event.reply_to, { ...before, status: event.status });
  }
  return next;
}
