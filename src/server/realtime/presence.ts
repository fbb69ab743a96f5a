/**
 * Who is on each presence channel, across every process. One person may have several tabs open, on different
 * processes: they join with their first socket anywhere and leave with their last, so the others see one
 * member_added and one member_removed. Sockets are kept as `process/socket`, so the members of a process that
 * stopped answering can be dropped together.
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

export interface PresenceChange {
  channel: string;
  userId: string;
}

export const socketKey = (processId: string, socketId: string) => `${processId}/${socketId}`;

export class PresenceRoster {
  private readonly channels = new Map<string, Map<string, Member>>();

  /** True when this socket made the user newly present. */
  join(channel: string, userId: string, info: Record<string, unknown>, socket: string): boolean {
    let members = this.channels.get(channel);
    if (!members) this.channels.set(channel, (members = new Map()));
    const member = members.get(userId);
    if (member) {
      member.sockets.add(socket);
      return false;
    }
    members.set(userId, { info, sockets: new Set([socket]) });
    return true;
  }

  /** True when the user's last socket left the channel. */
  leave(channel: string, userId: string, socket: string): boolean {
    const members = this.channels.get(channel);
    const member = members?.get(userId);
    if (!members || !member?.sockets.delete(socket)) return false;
    if (member.sockets.size > 0) return false;
    members.delete(userId);
    if (members.size === 0) this.channels.delete(channel);
    return true;
  }

  /** Removes every socket of `processId`; returns the members who had no socket left anywhere. */
  dropProcess(processId: string): PresenceChange[] {
    const prefix = `${processId}/`;
    const gone: PresenceChange[] = [];
    for (const [channel, members] of this.channels) {
      for (const [userId, member] of members) {
        for (const socket of member.sockets)
          if (socket.startsWith(prefix)) this.leave(channel, userId, socket) && gone.push({ channel, userId });
      }
    }
    return gone;
  }

  /** The memberships held by sockets of `processId`, to tell a process that starts after them. */
  membershipsOf(processId: string): Array<PresenceChange & { info: Record<string, unknown>; socket: string }> {
    const prefix = `${processId}/`;
    const held: Array<PresenceChange & { info: Record<string, unknown>; socket: string }> = [];
    for (const [channel, members] of this.channels) {
      for (const [userId, member] of members) {
        for (const socket of member.sockets)
          if (socket.startsWith(prefix))
            held.push({ channel, userId, info: member.info, socket: socket.slice(prefix.length) });
      }
    }
    return held;
  }

  snapshot(channel: string): PresenceSnapshot {
    const members = this.channels.get(channel) ?? new Map<string, Member>();
    const hash: PresenceSnapshot['hash'] = {};
    for (const [id, member] of members) hash[id] = member.info;
    return { ids: Object.keys(hash), hash, count: members.size };
  }
}
