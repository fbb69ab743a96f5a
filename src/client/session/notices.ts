/** Full-screen and modal notices that live outside any one route (SPEC section 2, session notices). */
import { useSyncExternalStore } from 'react';

export interface NoticesState {
  /** 'Session Timeout' modal after an inactivity sign-out. */
  timedOut: boolean;
  /** '{product} has updated' overlay. */
  systemUpdated: boolean;
  /** Seconds left while the 'Your session is about to expire' modal shows; null when it does not. */
  expiringIn: number | null;
}

let state: NoticesState = { timedOut: false, systemUpdated: false, expiringIn: null };
const listeners = new Set<() => void>();

function set(part: Partial<NoticesState>) {
  state = { ...state, ...part };
  for (const listener of listeners) listener();
}

export const notices = {
  getState: () => state,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  showTimedOut: () => set({ timedOut: true, expiringIn: null }),
  dismissTimedOut: () => set({ timedOut: false }),
  showSystemUpdated: () => set({ systemUpdated: true }),
  setExpiringIn: (seconds: number | null) => set({ expiringIn: seconds }),
};

export function useNotices(): NoticesState {
  return useSyncExternalStore(notices.subscribe, notices.getState, notices.getState);
}
