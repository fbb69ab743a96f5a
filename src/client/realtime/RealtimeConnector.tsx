/**
 * Live updates while someone is signed in: a model event refetches the cached queries of that resource
 * (lists, show pages, references) on this screen; features, statistics and schemas reload as SPEC section
 * 4 says; the person's own user or role refreshes the session (profile and permissions); a system update
 * shows the overlay. After a reconnect the deploy version is compared, in case the update happened while
 * the socket was away.
 */
import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useMainData, useSession } from '../app/hooks';
import { http, mainData, session } from '../app/services';
import { REALTIME_WINDOW_EVENT, isResourceReadKey, planRealtimeEvent } from './events';
import { notices } from '../session/notices';

export function RealtimeConnector() {
  const { user } = useSession();
  const { config } = useMainData();
  const queryClient = useQueryClient();
  const versionRef = useRef<string | undefined>(undefined);
  if (config?.version && !versionRef.current) versionRef.current = config.version;
  const realtime = config?.realtime;
  const userId = user?.id;
  const roleId = user?.role_id ?? null;
  const realtimeKey = user?.realtime_key;

  useEffect(() => {
    if (userId === undefined || !realtime?.key) return;
    let disconnect: (() => void) | undefined;
    let cancelled = false;
    const me = { id: userId, role_id: roleId, realtime_key: realtimeKey };

    const onEvent = (eventName: string, payload: unknown) => {
      const plan = planRealtimeEvent(eventName, payload, session.user ?? me);
      for (const resource of plan.invalidate) {
        void queryClient.invalidateQueries({ predicate: (query) => isResourceReadKey(query.queryKey, resource) });
      }
      for (const part of plan.reload) void mainData.load(part);
      if (plan.refreshSession) {
        void session.refresh().then(() => queryClient.invalidateQueries({ queryKey: ['auth'] }));
      }
      if (plan.systemUpdated) notices.showSystemUpdated();
      window.dispatchEvent(new CustomEvent(REALTIME_WINDOW_EVENT, { detail: { name: eventName, payload } }));
    };

    const onReconnect = () => {
      void http
        .get<{ version?: string }>('/api/dashboard/version', { refreshSessionOnFailure: false })
        .then((response) => {
          const version = response.data?.version;
          if (version && versionRef.current && version !== versionRef.current) notices.showSystemUpdated();
        })
        .catch(() => undefined);
    };

    import('./connect')
      .then(({ connectRealtime }) => {
        if (cancelled) return;
        disconnect = connectRealtime({ config: realtime, me, http, onEvent, onReconnect });
      })
      .catch((error) => console.error('Realtime updates are unavailable:', error));

    return () => {
      cancelled = true;
      disconnect?.();
    };
  }, [userId, roleId, realtimeKey, realtime, queryClient]);

  return null;
}
