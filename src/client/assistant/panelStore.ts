/**
 * Whether the assistant's side panel is open and on which conversation: one small store, so the sidebar item, the
 * /assistant page and a record page can all open it from anywhere without moving the page behind it.
 */
import { useSyncExternalStore } from 'react';

export interface PanelState {
  open: boolean;
  /** The conversation shown; null starts a new one with the first question. */
  threadId: number | null;
}

let state: PanelState = { open: false, threadId: null };
const listeners = new Set<() => void>();
const set = (next: PanelState) => {
  state = next;
  for (const listener of listeners) listener();
};

export const assistantPanel = {
  getState: () => state,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Opens the panel on a conversation (a new one with `null`, the last one shown when left out). */
  open(threadId?: number | null) {
    set({ open: true, threadId: threadId === undefined ? state.threadId : threadId });
  },
  show(threadId: number | null) {
    set({ ...state, threadId });
  },
  close() {
    set({ ...state, open: false });
  },
};

export function useAssistantPanel(): PanelState {
  return useSyncExternalStore(assistantPanel.subscribe, assistantPanel.getState, assistantPanel.getState);
}
