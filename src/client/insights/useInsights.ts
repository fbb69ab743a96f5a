/**
 * Reading the figures endpoints of the dashboard, the activity feed and the reports with react-query, and keeping
 * them live: every model event heard on the realtime bus refetches them (bursts coalesced into one refetch).
 */

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useCanAccess } from 'react-admin';
import type { Query } from '../http/query';
import type { InsightPath } from '../providers/insightMethods';
import { modelEventOf, useRealtimeEvent } from '../realtime/useRealtimeEvent';
import { useAppDataProvider } from '../records/hooks';

/** The part of the react-query cache these screens own; invalidated together on any model event. */
export const INSIGHTS_KEY = 'insights';

/** One figures endpoint (under /api/) with a query; the answer as it comes (`{data, meta, ...}`). */
export function useApi<T>(path: InsightPath, query: Query = {}, options: { enabled?: boolean } = {}) {
  const dataProvider = useAppDataProvider();
  return useQuery<T, Error & { status?: number }>({
    queryKey: [INSIGHTS_KEY, path, query],
    queryFn: ({ signal }) => dataProvider.insight<T>(path, query, signal),
    enabled: options.enabled ?? true,
    staleTime: 5_000,
    placeholderData: (previous) => previous,
  });
}

/** Options for a filter picker (`GET /api/options/{name}`); empty, and not asked for, when the person may not read them. */
export function useOptions(name: string) {
  const { canAccess } = useCanAccess({ resource: name, action: 'read' });
  const dataProvider = useAppDataProvider();
  return (
    useQuery<Array<{ id: number | string; name: string; [key: string]: unknown }>>({
      queryKey: [INSIGHTS_KEY, 'options', name],
      queryFn: () => dataProvider.options(name).catch(() => []),
      staleTime: 5 * 60_000,
      enabled: canAccess === true,
    }).data ?? []
  );
}

const anyModelEvent = modelEventOf();

/**
 * Refetch these screens' figures when anything changes (every model event: created, updated, saved, destroyed),
 * and when the tab comes back (so without a socket, e.g. blocked websockets, the figures still catch up).
 */
export function useLiveRefresh(onChange?: () => void) {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(onChange);
  latest.current = onChange;
  const refresh = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      void queryClient.invalidateQueries({ queryKey: [INSIGHTS_KEY] });
      latest.current?.();
    }, 250);
  };
  useRealtimeEvent(anyModelEvent, refresh);
  useEffect(() => {
    const onFocus = () => refresh();
    window.addEventListener('focus', onFocus);
    return () => {
      clearTimeout(timer.current);
      window.removeEventListener('focus', onFocus);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [queryClient]);
}
