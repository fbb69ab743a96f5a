/**
 * Who is on each presence channel of this process. One person may have several tabs open: they join on
 * their first socket and leave with their last, so the others see one member_added and one member_removed.
 */
export interface PresenceSnapshot {
  ids: string[];
  hash: Record<string, Record<string, unknown>>;
  count: number;
}

interface Member {
  info: Record<string, unknown>;
  sockets: Set<string>;
}

export class PresenceRoster {
  private readonly channels = new Map<string, Map<string, Member>>();

  /** True when this socket made the user newly present. */
  join(channel: string, userId: string, info: Record<string, unknown>, socketId: string): boolean {
    let members = this.channels.get(channel);
    if (!members) this.channels.set(channel, (members = new Map()));
    const member = members.get(userId);
    if (member) {
      member.sockets.add(socketId);
      return false;
    }
    members.set(userId, { info, sockets: new Set([socketId]) });
    return true;
  }

  /** True when the user's last socket left the channel. */
  leave(channel: string, userId: string, socketId: string): boolean {
    const members = this.channels.get(channel);
    const member = members?.get(userId);
    if (!members || !member || !member.sockets.delete(socketId)) return false;
    if (member.sockets.size > 0) return false;
    members.delete(userId);
    if (members.size === 0) this.channels.delete(channel);
    return true;
  }

  snapshot(channel: string): PresenceSnapshot {
    const members = this.channels.get(channel) ?? new Map<string, Member>();
    const hash: PresenceSnapshot['hash'] = {};
    for (const [id, member] of members) hash[id] = member.info;
    return { ids: Object.keys(hash), hash, count: members.size };
  }
}
