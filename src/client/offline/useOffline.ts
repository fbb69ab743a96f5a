import { useSyncExternalStore } from 'react';
import type { OutboxItem } from './database';
import { type OfflineState, offline } from './runtime';

/** Whether the browser is online and the signed-in person's outbox (offline/runtime.ts). */
export function useOffline(): OfflineState {
  return useSyncExternalStore(offline.subscribe, offline.getState, offline.getState);
}

/** What the top bar says: "Offline, 3 waiting", "2 waiting", "1 to resolve"; empty when all is sent. */
export function offlineSummary({ online, items, sending }: OfflineState): string {
  const waiting = items.filter((item) => item.state === 'waiting').length;
  const attention = items.length - waiting;
  const parts = [
    ...(online ? [] : ['Offline']),
    ...(waiting ? [online && sending ? `sending ${waiting}` : `${waiting} waiting`] : []),
    ...(attention ? [`${attention} to resolve`] : []),
  ];
  const text = parts.join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The records of `resource` made on this device that wait to be sent and belong where `fields` say (a site's notes). */
export function useWaitingCreates(resource: string, fields: Record<string, unknown>): OutboxItem[] {
  const { items } = useOffline();
  return items.filter(
    (item) =>
      item.resource === resource &&
      item.kind === 'create' &&
      Object.entries(fields).every(([field, value]) => String(item.data[field]) === String(value)),
  );
}
