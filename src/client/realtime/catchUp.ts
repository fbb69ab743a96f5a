import type { Query, QueryClient } from '@tanstack/react-query';

/** react-admin's session queries: the session keeps itself (its own user and role events refresh it). */
const isSessionQuery = (query: Query) => query.queryKey[0] === 'auth';
/**
 * What a screen shows from: a query holding an answer. One without (refused, failed, never run) shows nothing stale,
 * and asking it again would put it back to loading, which makes screens that wait for it draw themselves anew.
 */
const shownAnswer = (query: Query) => !isSessionQuery(query) && query.state.status === 'success';

/**
 * Fetches again every query answered before `since` (the moment every channel listened): a change announced
 * before that was heard by nobody. A query still on its way is left to arrive (cancelling it would delay the
 * screen's first paint) and fetched again once it has, since its answer may also predate that change.
 */
export function refetchWhatPredates(queryClient: QueryClient, since: number): void {
  const cache = queryClient.getQueryCache();
  const inFlight = new Set<Query>(
    cache.findAll({ fetchStatus: 'fetching', predicate: (query) => !isSessionQuery(query) }),
  );
  void queryClient.invalidateQueries({
    predicate: (query) => shownAnswer(query) && !inFlight.has(query) && query.state.dataUpdatedAt < since,
  });
  if (inFlight.size === 0) return;
  const unsubscribe = cache.subscribe((event) => {
    const { query } = event;
    if (!inFlight.has(query) || (event.type !== 'removed' && query.state.fetchStatus === 'fetching')) return;
    inFlight.delete(query);
    if (event.type !== 'removed' && shownAnswer(query))
      void queryClient.invalidateQueries({ queryKey: query.queryKey, exact: true });
    if (inFlight.size === 0) unsubscribe();
  });
}
