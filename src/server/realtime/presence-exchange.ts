import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { isConnectionLost } from '../db/connection-errors.js';
import { type PresenceChange, PresenceRoster, type PresenceSnapshot, socketKey } from './presence.js';

/** The relay event that carries presence notices between processes; never delivered to a socket. */
export const PRESENCE_NOTICE_EVENT = 'om_internal:presence';

type Membership = PresenceChange & { info: Record<string, unknown>; socket: string };

export type PresenceNotice =
  | ({ kind: 'join'; process: string } & Membership)
  | ({ kind: 'leave'; process: string } & PresenceChange & { socket: string })
  /** A process started: the others answer with what their sockets hold. */
  | { kind: 'hello'; process: string }
  | { kind: 'members'; process: string; members: Membership[] }
  | { kind: 'alive'; process: string }
  | { kind: 'gone'; process: string };

export interface PresenceExchangeOptions {
  /** Sends a notice to every process (this one included: it ignores its own). */
  publish(notice: PresenceNotice): Promise<void>;
  /** A member arrived on or left a channel through another process: tell this process's sockets. */
  announce(change: PresenceChange, event: 'member_added' | 'member_removed', info?: Record<string, unknown>): void;
  log: FastifyBaseLogger;
  /** How often this process says it is alive; one silent for three times that is taken for dead. */
  aliveMs?: number;
}

/**
 * Presence shared by every process on the relay (docs/realtime.md "Presence"). Each process tells the others of
 * every socket that joins or leaves a presence channel, so any process can give the whole roster when a socket
 * subscribes; a process that stops (or is killed and falls silent) takes its sockets' memberships with it.
 */
export class PresenceExchange {
  readonly processId = randomUUID();
  private readonly roster = new PresenceRoster();
  private readonly lastHeard = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: PresenceExchangeOptions) {}

  private get aliveMs() {
    return this.options.aliveMs ?? 15_000;
  }

  start(): void {
    void this.send({ kind: 'hello', process: this.processId });
    this.timer = setInterval(() => {
      void this.send({ kind: 'alive', process: this.processId });
      this.dropSilent();
    }, this.aliveMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    if (this.stopped) return;
    await this.send({ kind: 'gone', process: this.processId });
    this.stopped = true;
  }

  /** True when the socket made the user newly present anywhere. */
  join(channel: string, userId: string, info: Record<string, unknown>, socket: string): boolean {
    void this.send({ kind: 'join', process: this.processId, channel, userId, info, socket });
    return this.roster.join(channel, userId, info, socketKey(this.processId, socket));
  }

  /** True when the user's last socket anywhere left the channel. */
  leave(channel: string, userId: string, socket: string): boolean {
    void this.send({ kind: 'leave', process: this.processId, channel, userId, socket });
    return this.roster.leave(channel, userId, socketKey(this.processId, socket));
  }

  snapshot(channel: string): PresenceSnapshot {
    return this.roster.snapshot(channel);
  }

  receive(notice: PresenceNotice): void {
    if (!notice || typeof notice.process !== 'string' || notice.process === this.processId) return;
    this.lastHeard.set(notice.process, Date.now());
    switch (notice.kind) {
      case 'join':
        if (
          this.roster.join(notice.channel, notice.userId, notice.info ?? {}, socketKey(notice.process, notice.socket))
        ) {
          this.options.announce(notice, 'member_added', notice.info ?? {});
        }
        return;
      case 'members':
        for (const member of notice.members ?? []) {
          if (
            this.roster.join(member.channel, member.userId, member.info ?? {}, socketKey(notice.process, member.socket))
          ) {
            this.options.announce(member, 'member_added', member.info ?? {});
          }
        }
        return;
      case 'leave':
        if (this.roster.leave(notice.channel, notice.userId, socketKey(notice.process, notice.socket)))
          this.options.announce(notice, 'member_removed');
        return;
      case 'hello': {
        const members = this.roster.membershipsOf(this.processId);
        if (members.length) void this.send({ kind: 'members', process: this.processId, members });
        return;
      }
      case 'gone':
        this.drop(notice.process);
        return;
      default:
    }
  }

  private dropSilent(): void {
    const silentSince = Date.now() - 3 * this.aliveMs;
    for (const [process, heard] of this.lastHeard) if (heard < silentSince) this.drop(process);
  }

  private drop(process: string): void {
    this.lastHeard.delete(process);
    for (const change of this.roster.dropProcess(process)) this.options.announce(change, 'member_removed');
  }

  private send(notice: PresenceNotice): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return this.options.publish(notice).catch((error) =>
      // The database away: the next `alive` notice after its return says it all again.
      isConnectionLost(error)
        ? this.options.log.warn({ reason: error.message }, 'realtime: could not share a presence change')
        : this.options.log.error({ err: error }, 'realtime: could not share a presence change'),
    );
  }
}
