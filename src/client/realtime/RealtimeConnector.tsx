/**
 * The one realtime connection while someone is signed in: it feeds every event to the realtime bus (hub.ts) and
 * lends the bus its presence channels. The shell's own reaction is one listener on that bus: a model event
 * refetches the cached queries of that resource (lists, show pages, references) on this screen; features,
 * statistics and schemas reload as SPEC section 4 says; the person's own user or role refreshes the session
 * (profile and permissions); a system update shows the overlay. Once every channel listens (at the start and after
 * a break) the screen's queries answered before that moment are fetched again: a change announced while nobody
 * listened is not missed. After a reconnect the deploy version is compared, in case the update happened meanwhile.
 */

import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useMainData, useSession } from '../app/hooks';
import { http, mainData, session } from '../app/services';
import { notices } from '../session/notices';
import { refetchWhatPredates } from './catchUp';
import { isResourceReadKey, planRealtimeEvent } from './events';
import { LISTENING, RECONNECTED, realtimeHub } from './hub';
import { useRealtimeEvent } from './useRealtimeEvent';

export function RealtimeConnector() {
  const { user } = useSession();
  const { config } = useMainData();
  const queryClient = useQueryClient();
  const versionRef = useRef<string | undefined>(undefined);
  if (config?.version && !versionRef.current) versionRef.current = config.version;
  // The connection follows the realtime settings' values: config read again with the same settings keeps it.
  const realtimeSettings = config?.realtime ? JSON.stringify(config.realtime) : undefined;
  const userId = user?.id;
  const roleId = user?.role_id ?? null;
  const realtimeKey = user?.realtime_key;

  useRealtimeEvent(
    (event) => event.name !== RECONNECTED && event.name !== LISTENING,
    ({ name, payload }) => {
      if (userId === undefined) return;
      const plan = planRealtimeEvent(
        name,
        payload,
        session.user ?? { id: userId, role_id: roleId, realtime_key: realtimeKey },
      );
      for (const resource of plan.invalidate) {
        void queryClient.invalidateQueries({ predicate: (query) => isResourceReadKey(query.queryKey, resource) });
      }
      for (const part of plan.reload) void mainData.load(part);
      if (plan.refreshSession) void session.refresh();
      if (plan.systemUpdated) notices.showSystemUpdated();
    },
  );

  useRealtimeEvent([LISTENING], () => refetchWhatPredates(queryClient, Date.now()));

  useRealtimeEvent([RECONNECTED], () => {
    void http
      .get<{ version?: string }>('/api/dashboard/version', { refreshSessionOnFailure: false })
      .then((response) => {
        const version = response.data?.version;
        if (version && versionRef.current && version !== versionRef.current) notices.showSystemUpdated();
      })
      .catch(() => undefined);
  });

  useEffect(() => {
    const realtime = realtimeSettings
      ? (JSON.parse(realtimeSettings) as NonNullable<typeof config>['realtime'])
      : undefined;
    if (userId === undefined || !realtime?.key) return;
    let disconnect: (() => void) | undefined;
    let cancelled = false;
    const me = { id: userId, role_id: roleId, realtime_key: realtimeKey };

    import('./connect')
      .then(({ connectRealtime }) => {
        if (cancelled) return;
        const connection = connectRealtime({
          config: realtime,
          me,
          http,
          onEvent: (eventName, payload) => realtimeHub.emit(eventName, payload),
          onReconnect: () => realtimeHub.emit(RECONNECTED, null),
          onListening: () => realtimeHub.emit(LISTENING, null),
        });
        realtimeHub.attach(connection);
        disconnect = () => {
          realtimeHub.attach(null);
          connection.disconnect();
        };
      })
      .catch((error) => console.error('Realtime updates are unavailable:', error));

    return () => {
      cancelled = true;
      disconnect?.();
    };
  }, [userId, roleId, realtimeKey, realtimeSettings]);

  return null;
}
