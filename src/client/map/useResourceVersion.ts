/**
 * Live updates for the map without a second socket: the shell's RealtimeConnector refetches every cached
 * react-admin read query of a resource when a model event for it arrives (realtime/events.ts
 * `isResourceReadKey`). This hook keeps one such query per resource, answered locally (no request), so each
 * event bumps a number the map watches to ask the server for markers again.
 */
import { useQuery } from '@tanstack/react-query';

let counter = 0;

export function useResourceVersion(resource: string): number {
  const { data } = useQuery({
    // The shape react-admin uses for reads, so the shell's realtime invalidation reaches it.
    queryKey: [resource, 'getList', { mapLiveUpdates: true }],
    queryFn: async () => ++counter,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: true,
  });
  return data ?? 0;
}
