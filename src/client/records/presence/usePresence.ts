/**
 * Who else has this record open: the presence channel `presence-record.{type}.{id}` of the realtime hub (the
 * server authorises it for people who may read the record). It rides on the shell's own pusher-js connection
 * (found through `Pusher.instances`, as the reports do), so no second socket is opened; pusher-js is loaded on
 * demand. Members are `{id, name}`; the person themself is left out.
 */
import { useEffect, useState } from 'react';
import { useSession } from '../../app/hooks';

export interface PresenceMember {
  id: string;
  name: string;
}

export const presenceChannel = (type: string, id: string | number) => `presence-record.${type}.${id}`;

type PusherLike = {
  subscribe(name: string): any;
  unsubscribe(name: string): void;
  connection: { state: string; bind(event: string, callback: () => void): void; unbind(event: string, callback: () => void): void };
};

async function shellConnection(): Promise<PusherLike | null> {
  const module = await import('pusher-js');
  const Pusher = module.default as unknown as { instances?: PusherLike[] };
  const instances = Pusher.instances ?? [];
  return instances.length ? instances[instances.length - 1]! : null;
}

/** Pure: the members of a pusher-js presence channel, minus me, sorted by name. */
export function othersIn(members: Array<{ id: string | number; info?: { name?: string } }>, me: string | number | undefined): PresenceMember[] {
  const seen = new Map<string, PresenceMember>();
  for (const member of members) {
    const id = String(member.id);
    if (me !== undefined && id === String(me)) continue;
    seen.set(id, { id, name: member.info?.name || `User ${id}` });
  }
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export function usePresence(type: string | undefined, id: string | number | undefined): PresenceMember[] {
  const { user } = useSession();
  const me = user?.id;
  const [others, setOthers] = useState<PresenceMember[]>([]);

  useEffect(() => {
    if (!type || id === undefined || me === undefined) return;
    let cancelled = false;
    let cleanup: (() => void) | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const name = presenceChannel(type, id);

    const join = async (attempt = 0) => {
      const pusher = await shellConnection().catch(() => null);
      if (cancelled) return;
      if (!pusher) {
        // The shell connects right after sign-in: try again shortly.
        if (attempt < 20) retry = setTimeout(() => void join(attempt + 1), 1_000);
        return;
      }
      const channel = pusher.subscribe(name);
      const refresh = () => {
        const list: Array<{ id: string; info?: { name?: string } }> = [];
        channel.members?.each?.((member: { id: string; info?: { name?: string } }) => list.push(member));
        if (!cancelled) setOthers(othersIn(list, me));
      };
      channel.bind('pusher:subscription_succeeded', refresh);
      channel.bind('pusher:member_added', refresh);
      channel.bind('pusher:member_removed', refresh);
      if (channel.subscribed) refresh();
      cleanup = () => {
        channel.unbind('pusher:subscription_succeeded', refresh);
        channel.unbind('pusher:member_added', refresh);
        channel.unbind('pusher:member_removed', refresh);
        pusher.unsubscribe(name);
      };
    };
    void join();
    return () => {
      cancelled = true;
      if (retry) clearTimeout(retry);
      cleanup?.();
      setOthers([]);
    };
  }, [type, id, me]);

  return others;
}
