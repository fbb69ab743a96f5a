/**
 * The members of a presence channel (`presence-record.site.12`), joined on the shell's one connection through the
 * realtime bus for as long as the component is mounted; empty until the channel answers.
 */
import { useEffect, useState } from 'react';
import { type PresenceMember, realtimeHub } from './hub';

export function usePresenceMembers(channel: string | null): PresenceMember[] {
  const [members, setMembers] = useState<PresenceMember[]>([]);
  useEffect(() => {
    if (!channel) return;
    let live = true;
    const leave = realtimeHub.joinPresence(channel, (next) => live && setMembers(next));
    return () => {
      live = false;
      leave();
      setMembers([]);
    };
  }, [channel]);
  return members;
}
