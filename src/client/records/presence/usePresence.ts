/**
 * Who else has this record open: the presence channel `presence-record.{type}.{id}` of the realtime hub (the
 * server authorises it for people who may read the record), joined through the realtime bus on the shell's one
 * connection. Members are `{id, name}`; the person themself is left out.
 */
import { useMemo } from 'react';
import { useSession } from '../../app/hooks';
import { usePresenceMembers } from '../../realtime/usePresenceMembers';

export interface PresenceMember {
  id: string;
  name: string;
}

export const presenceChannel = (type: string, id: string | number) => `presence-record.${type}.${id}`;

/** Pure: the members of a presence channel, minus me, sorted by name. */
export function othersIn(
  members: Array<{ id: string | number; info?: { name?: string } }>,
  me: string | number | undefined,
): PresenceMember[] {
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
  const members = usePresenceMembers(type && id !== undefined && me !== undefined ? presenceChannel(type, id) : null);
  return useMemo(() => othersIn(members, me), [members, me]);
}
