/**
 * Listen to the realtime bus from a component: `useRealtimeEvent(filter, handler)` calls `handler` for every event
 * the filter accepts while the component is mounted. The filter is a list of event names (without namespace) or
 * a predicate; `modelEventOf(...)` builds the usual one. The latest handler is called, so it need not be memoised.
 */
import { useEffect, useRef } from 'react';
import { MODEL_EVENTS, type ModelEventPayload } from './events';
import { type RealtimeEvent, realtimeHub } from './hub';

export type RealtimeFilter = readonly string[] | ((event: RealtimeEvent) => boolean);

export function useRealtimeEvent(filter: RealtimeFilter, handler: (event: RealtimeEvent) => void): void {
  const latest = useRef({ filter, handler });
  latest.current = { filter, handler };
  useEffect(
    () =>
      realtimeHub.subscribe((event) => {
        const { filter: accepts, handler: handle } = latest.current;
        if (typeof accepts === 'function' ? accepts(event) : accepts.includes(event.name)) handle(event);
      }),
    [],
  );
}

/** A filter for model events (created, updated, saved, destroyed), of the given record types or of any. */
export function modelEventOf(...types: string[]): (event: RealtimeEvent) => boolean {
  return (event) => {
    if (!MODEL_EVENTS.has(event.name)) return false;
    if (types.length === 0) return true;
    const type = (event.payload as ModelEventPayload | null)?.type;
    return typeof type === 'string' && types.includes(type);
  };
}
