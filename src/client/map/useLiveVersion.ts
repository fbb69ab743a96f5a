/**
 * A number that changes when records of these types change anywhere (model events on the realtime bus) or when the
 * socket comes back after a break (events may have been missed): the map's layers and card ask the server again
 * when it changes. A burst of events (an import) becomes one change, 400 ms after the last.
 */
import { useEffect, useRef, useState } from 'react';
import { RECONNECTED } from '../realtime/hub';
import { modelEventOf, useRealtimeEvent } from '../realtime/useRealtimeEvent';

export function useLiveVersion(types: readonly string[]): number {
  const [version, setVersion] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const isModelEvent = modelEventOf(...types);
  useRealtimeEvent(
    (event) => event.name === RECONNECTED || isModelEvent(event),
    () => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setVersion((current) => current + 1), 400);
    },
  );
  useEffect(() => () => clearTimeout(timer.current), []);
  return version;
}
