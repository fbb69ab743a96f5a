/**
 * The client's one realtime bus. The shell's single connection (connect.ts, opened by RealtimeConnector) feeds it
 * every event it hears and lends it its presence channels; screens listen through `useRealtimeEvent` and
 * `usePresenceMembers` and never see pusher-js. Listening before the connection exists (it is opened lazily after
 * sign-in) is fine: presence joins wait for it and are joined again on the next connection.
 */
import { normaliseEventName } from './events';

export interface RealtimeEvent {
  /** Without namespace: 'ModelSaved', 'ImportComplete', 'SystemUpdated', or the bus's own `RECONNECTED`, `LISTENING`. */
  name: string;
  payload: unknown;
}

/** Emitted by the bus itself when the socket comes back after a break: events may have been missed meanwhile. */
export const RECONNECTED = 'Reconnected';
/** Emitted by the bus itself once every channel is subscribed (at the start and after each break). */
export const LISTENING = 'Listening';

export interface PresenceMember {
  id: string | number;
  info?: { name?: string };
}

/** What the connection lends the bus: joining a presence channel, told its members until left. */
export interface PresenceLink {
  joinPresence(channel: string, onMembers: (members: PresenceMember[]) => void): () => void;
}

type Listener = (event: RealtimeEvent) => void;

interface PresenceJoin {
  channel: string;
  onMembers: (members: PresenceMember[]) => void;
  leave?: () => void;
}

export class RealtimeHub {
  private listeners = new Set<Listener>();
  private joins = new Set<PresenceJoin>();
  private link: PresenceLink | null = null;

  /** An event heard on the connection (any namespace form of its name). */
  emit(eventName: string, payload: unknown): void {
    const event = { name: normaliseEventName(eventName), payload };
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        console.error('A realtime listener failed:', error);
      }
    }
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** The connection is up (or gone, with null): presence channels follow it. */
  attach(link: PresenceLink | null): void {
    for (const join of this.joins) {
      join.leave?.();
      join.leave = undefined;
    }
    this.link = link;
    if (link) for (const join of this.joins) join.leave = link.joinPresence(join.channel, join.onMembers);
  }

  joinPresence(channel: string, onMembers: (members: PresenceMember[]) => void): () => void {
    const join: PresenceJoin = { channel, onMembers };
    this.joins.add(join);
    if (this.link) join.leave = this.link.joinPresence(channel, onMembers);
    return () => {
      join.leave?.();
      this.joins.delete(join);
    };
  }
}

export const realtimeHub = new RealtimeHub();
