/**
 * "The first screen has painted": what a first screen does not show or need (the sidebar's entries, the assistant
 * panel, the dashboard's figures) waits for it, so the page's own content (the dashboard's greeting, the largest
 * paint) is not behind their rendering and code. A layout marks it once its page content has committed
 * (`FirstPaintMark`); from then on everything renders at once.
 */
import { useEffect, useSyncExternalStore } from 'react';

let painted = false;
let scheduled = false;
const listeners = new Set<() => void>();

function markCommitted(): void {
  if (painted || scheduled) return;
  scheduled = true;
  const done = () => {
    painted = true;
    for (const listener of listeners) listener();
  };
  // A frame callback runs before that frame's paint; a task posted from it runs once the frame has painted.
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(done, 0));
  else setTimeout(done, 0);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const isPainted = () => painted;

export function useFirstPaintDone(): boolean {
  return useSyncExternalStore(subscribe, isPainted, isPainted);
}

/** Rendered by a layout after its page content: marks the first screen once that content has committed. */
export function FirstPaintMark() {
  useEffect(markCommitted, []);
  return null;
}
