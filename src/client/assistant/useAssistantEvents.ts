/**
 * The answer as it is written: `AssistantMessage` events on the person's own channel (docs/assistant.md). The one
 * place the assistant hears realtime events; it listens to what the realtime connector passes on.
 */
import { useEffect, useRef } from 'react';
import type { AssistantMessageEvent } from '../../common/assistant-events';
import { REALTIME_WINDOW_EVENT, normaliseEventName } from '../realtime/events';

export type { AssistantMessageEvent };

export function useAssistantEvents(handler: (event: AssistantMessageEvent) => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const listener = (event: Event) => {
      const { name, payload } = (event as CustomEvent<{ name: string; payload: unknown }>).detail ?? {};
      if (normaliseEventName(String(name)) === 'AssistantMessage' && payload && typeof payload === 'object') latest.current(payload as AssistantMessageEvent);
    };
    window.addEventListener(REALTIME_WINDOW_EVENT, listener);
    return () => window.removeEventListener(REALTIME_WINDOW_EVENT, listener);
  }, []);
}
