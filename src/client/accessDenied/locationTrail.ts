/**
 * The last two places inside the app. react-admin sends a refused page to /access-denied without saying which page
 * it was; the trail keeps it (the page before /access-denied) and the page before that (the way back).
 */
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

const trail: string[] = [];

export function useLocationTrail(): void {
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  useEffect(() => {
    if (trail[trail.length - 1] === here) return;
    trail.push(here);
    if (trail.length > 3) trail.shift();
  }, [here]);
}

/** Where the person was refused and where they came from (both undefined on a first page load). */
export function refusedAndPrevious(): { refused?: string; previous?: string } {
  const deniedAt = trail.lastIndexOf('/access-denied');
  const end = deniedAt === -1 ? trail.length : deniedAt;
  return { refused: trail[end - 1], previous: trail[end - 2] };
}
