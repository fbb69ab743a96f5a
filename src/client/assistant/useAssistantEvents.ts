/**
 * The answer as it is written: `AssistantMessage` events on the person's own channel (docs/assistant.md), heard on
 * the one realtime bus.
 */
import type { AssistantMessageEvent } from '../../common/assistant-events';
import { useRealtimeEvent } from '../realtime/useRealtimeEvent';

export type { AssistantMessageEvent };

const ASSISTANT_MESSAGE = ['AssistantMessage'];

export function useAssistantEvents(handler: (event: AssistantMessageEvent) => void): void {
  useRealtimeEvent(ASSISTANT_MESSAGE, (event) => {
    if (event.payload && typeof event.payload === 'object') handler(event.payload as AssistantMessageEvent);
  });
}
