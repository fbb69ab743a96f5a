import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { Connection, type Liveness } from './connection.js';
import { PRESENCE_NOTICE_EVENT, PresenceExchange, type PresenceNotice } from './presence-exchange.js';
import type { RelayMessage } from './process-relay.js';
import {
  type ClientMessage,
  channelKind,
  ErrorCode,
  encodeData,
  errorFrame,
  frame,
  framesOf,
  isValidChannelName,
  PROTOCOL_VERSION,
  parseClientMessage,
  USER_CHANNEL_PREFIX,
} from './protocol.js';
import type { Signer } from './signing.js';

export interface HubOptions extends Liveness {
  signer: Signer;
  /** Whether `client-*` events from browsers are relayed (Pusher's "enable client events" switch). */
  clientEvents: boolean;
  /** Sends a client event or a presence notice on its way to every process; delivery comes back through `deliver`. */
  relay(message: RelayMessage): Promise<void>;
  log: FastifyBaseLogger;
  /**
   * For this many seconds after the hub starts, the events it delivers are kept and given to each socket that
   * subscribes to their channel afterwards (0: off). After a restart of the standalone hub every socket is new, and
   * pusher-js waits seconds between tries: a browser that comes back late still hears what was published meanwhile,
   * the events the app processes kept in their outbox while the hub was away included.
   */
  catchUpSeconds?: number;
}

/** At most this many events are kept for sockets that subscribe late (the oldest go first). */
const CATCH_UP_MAX_EVENTS = 2_000;

/**
 * The embedded Pusher-protocol server of this process: which socket is on which channel, and the handling
 * of every client frame. Events reach it only through `deliver`, which the event bus calls for each event
 * any process published.
 */
export class Hub {
  private readonly connections = new Set<Connection>();
  private readonly subscribers = new Map<string, Set<Connection>>();
  private readonly presence: PresenceExchange;
  private readonly startedAt = Date.now();
  /** Events kept for sockets that subscribe after them, while the catch-up window lasts; null after. */
  private recent: Array<{ channel: string; text: string; except?: string }> | null;

  get connectionCount(): number {
    return this.connections.size;
  }

  constructor(private readonly options: HubOptions) {
    this.recent = options.catchUpSeconds ? [] : null;
    this.presence = new PresenceExchange({
      publish: (notice) => options.relay({ channels: [], event: PRESENCE_NOTICE_EVENT, data: JSON.stringify(notice) }),
      announce: (change, event, info) => this.announceMember(change.channel, event, change.userId, info),
      log: options.log,
    });
  }

  /** Joins the other processes' presence once the relay runs. */
  start(): void {
    this.presence.start();
  }

  accept(ws: WebSocket, appKey: string, protocol: string | undefined): void {
    const refusal =
      appKey !== this.options.signer.key
        ? { code: ErrorCode.AppDoesNotExist, message: `App key ${appKey} does not exist on this server.` }
        : protocol !== undefined && Number(protocol) !== PROTOCOL_VERSION
          ? {
              code: ErrorCode.UnsupportedProtocol,
              message: `Unsupported protocol version ${protocol}; this server speaks ${PROTOCOL_VERSION}.`,
            }
          : null;
    if (refusal) {
      ws.send(errorFrame(refusal.code, refusal.message));
      ws.close(refusal.code, refusal.message);
      return;
    }
    const connection = new Connection(ws, this.options);
    this.connections.add(connection);
    ws.on('message', (raw, isBinary) => {
      connection.touch();
      if (!isBinary) this.handle(connection, raw.toString());
    });
    ws.on('close', () => this.remove(connection));
    connection.send(
      frame('pusher:connection_established', {
        socket_id: connection.socketId,
        activity_timeout: this.options.activityTimeoutSeconds,
      }),
    );
  }

  /** Hand an event to this process's subscribers of each channel. */
  deliver(message: RelayMessage): void {
    if (message.event === PRESENCE_NOTICE_EVENT) return this.presenceNotice(message.data);
    const extra = message.userId === undefined ? undefined : { user_id: message.userId };
    const keep = this.catchUpLasts() && !message.event.startsWith('pusher') && !message.event.startsWith('client-');
    const frameOn = framesOf(message.event, message.data, extra);
    for (const channel of message.channels) {
      const subscribers = this.subscribers.get(channel);
      if (!subscribers && !keep) continue;
      const text = frameOn(channel);
      if (keep) this.keep({ channel, text, except: message.except });
      for (const connection of subscribers ?? []) if (connection.socketId !== message.except) connection.send(text);
    }
  }

  private catchUpLasts(): boolean {
    if (this.recent && Date.now() - this.startedAt > (this.options.catchUpSeconds ?? 0) * 1000) this.recent = null;
    return this.recent !== null;
  }

  private keep(event: { channel: string; text: string; except?: string }) {
    this.recent!.push(event);
    if (this.recent!.length > CATCH_UP_MAX_EVENTS) this.recent!.shift();
  }

  /** A socket that joined `channel` during the catch-up window hears what was published on it before, in order. */
  private catchUp(connection: Connection, channel: string): void {
    if (!this.catchUpLasts()) return;
    for (const event of this.recent!)
      if (event.channel === channel && event.except !== connection.socketId) connection.send(event.text);
  }

  /** Asks every client to reconnect (to another process, or to this one after a restart) and waits for them to go. */
  async close(): Promise<void> {
    await this.presence.stop();
    await this.reconnectAll('Server shutting down');
  }

  /** Asks every client to reconnect at once (pusher-js does on 4200) and waits for them to go. */
  async reconnectAll(reason: string): Promise<void> {
    const connections = [...this.connections];
    for (const connection of connections) connection.close(ErrorCode.ReconnectNow, reason);
    await Promise.all(connections.map((connection) => connection.closed(1_000)));
  }

  private handle(connection: Connection, raw: string): void {
    const message = parseClientMessage(raw);
    if (!message) {
      connection.send(errorFrame(null, 'Messages must be JSON objects with an "event".'));
      return;
    }
    switch (message.event) {
      case 'pusher:ping':
        connection.send(frame('pusher:pong', {}));
        return;
      case 'pusher:pong':
        return;
      case 'pusher:subscribe':
        this.subscribe(connection, message.data);
        return;
      case 'pusher:unsubscribe':
        if (typeof message.data.channel === 'string') this.unsubscribe(connection, message.data.channel);
        return;
      case 'pusher:signin':
        this.signin(connection, message.data);
        return;
      default:
        if (message.event.startsWith('client-')) this.clientEvent(connection, message);
    }
  }

  private subscribe(connection: Connection, data: Record<string, unknown>): void {
    const channel = data.channel;
    if (typeof channel !== 'string' || !channel) {
      connection.send(errorFrame(null, 'pusher:subscribe needs a "channel".'));
      return;
    }
    const refuse = (error: string, status = 401) =>
      connection.send(frame('pusher:subscription_error', { type: 'AuthError', error, status }, channel));
    const kind = channelKind(channel);
    if (kind !== 'user' && !isValidChannelName(channel)) return refuse(`Invalid channel name ${channel}.`, 400);
    if (connection.channels.has(channel)) return this.confirm(connection, channel);

    let member: { id: string; info: Record<string, unknown> } | undefined;
    if (kind === 'user' && connection.userId !== channel.slice(USER_CHANNEL_PREFIX.length)) {
      return refuse('Sign in as this user before subscribing to their channel.', 403);
    }
    if (kind === 'private' && !this.options.signer.verifyChannel(data.auth, connection.socketId, channel)) {
      return refuse('Invalid signature for this socket and channel.');
    }
    if (kind === 'presence') {
      const channelData = typeof data.channel_data === 'string' ? data.channel_data : undefined;
      member = channelData === undefined ? undefined : parseMember(channelData);
      if (!member) return refuse('Presence channels need channel_data with a user_id.', 400);
      if (!this.options.signer.verifyChannel(data.auth, connection.socketId, channel, channelData)) {
        return refuse('Invalid signature for this socket, channel and channel_data.');
      }
    }

    connection.channels.set(channel, member?.id);
    let subscribers = this.subscribers.get(channel);
    if (!subscribers) this.subscribers.set(channel, (subscribers = new Set()));
    subscribers.add(connection);
    const arrived = member ? this.presence.join(channel, member.id, member.info, connection.socketId) : false;
    this.confirm(connection, channel);
    this.catchUp(connection, channel);
    if (arrived) {
      this.announceMember(channel, 'member_added', member!.id, member!.info, connection);
    }
  }

  private confirm(connection: Connection, channel: string): void {
    const data = channelKind(channel) === 'presence' ? { presence: this.presence.snapshot(channel) } : {};
    connection.send(frame('pusher_internal:subscription_succeeded', data, channel));
  }

  private unsubscribe(connection: Connection, channel: string): void {
    if (!connection.channels.has(channel)) return;
    const userId = connection.channels.get(channel);
    connection.channels.delete(channel);
    const subscribers = this.subscribers.get(channel);
    subscribers?.delete(connection);
    if (subscribers?.size === 0) this.subscribers.delete(channel);
    if (userId !== undefined && this.presence.leave(channel, userId, connection.socketId)) {
      this.announceMember(channel, 'member_removed', userId, undefined, connection);
    }
  }

  private signin(connection: Connection, data: Record<string, unknown>): void {
    const userData = data.user_data;
    let userId: unknown;
    if (typeof userData === 'string' && this.options.signer.verifyUser(data.auth, connection.socketId, userData)) {
      try {
        userId = JSON.parse(userData)?.id;
      } catch {
        userId = undefined;
      }
    }
    if (typeof userId !== 'string' || !userId) {
      connection.send(errorFrame(ErrorCode.Unauthorized, 'Invalid signature or user_data for pusher:signin.'));
      return;
    }
    if (connection.userId !== undefined && connection.userId !== userId) {
      this.unsubscribe(connection, USER_CHANNEL_PREFIX + connection.userId);
    }
    connection.userId = userId;
    connection.send(frame('pusher:signin_success', { user_data: userData }));
  }

  private clientEvent(connection: Connection, message: ClientMessage): void {
    const channel = message.channel;
    const kind = channel === undefined ? 'public' : channelKind(channel);
    const problem = !this.options.clientEvents
      ? 'Client events are not enabled on this server.'
      : channel === undefined || (kind !== 'private' && kind !== 'presence') || !connection.channels.has(channel)
        ? 'Client events may only be sent on a private or presence channel this connection has joined.'
        : null;
    if (problem) {
      connection.send(errorFrame(ErrorCode.ClientEventRejected, problem));
      return;
    }
    const relayed: RelayMessage = {
      channels: [channel!],
      event: message.event,
      data: encodeData(message.rawData),
      except: connection.socketId,
      userId: connection.channels.get(channel!),
    };
    this.options
      .relay(relayed)
      .catch((error) => this.options.log.error({ err: error }, 'realtime: could not relay a client event'));
  }

  private presenceNotice(data: string): void {
    let notice: PresenceNotice;
    try {
      notice = JSON.parse(data);
    } catch {
      return;
    }
    this.presence.receive(notice);
  }

  /**
   * Tells this process's sockets on `channel` that a member arrived or left (not the socket that did it). A change
   * through this process comes from subscribe/unsubscribe; one through another process from the presence exchange,
   * which hears of it over the relay.
   */
  private announceMember(
    channel: string,
    event: 'member_added' | 'member_removed',
    userId: string,
    info?: Record<string, unknown>,
    except?: Connection,
  ): void {
    const data = event === 'member_added' ? { user_id: userId, user_info: info ?? {} } : { user_id: userId };
    this.deliver({
      channels: [channel],
      event: `pusher_internal:${event}`,
      data: encodeData(data),
      except: except?.socketId,
    });
  }

  private remove(connection: Connection): void {
    connection.stopTimers();
    for (const channel of [...connection.channels.keys()]) this.unsubscribe(connection, channel);
    this.connections.delete(connection);
  }
}

function parseMember(channelData: string): { id: string; info: Record<string, unknown> } | undefined {
  try {
    const parsed = JSON.parse(channelData);
    const id = parsed?.user_id;
    if ((typeof id !== 'string' && typeof id !== 'number') || id === '') return undefined;
    const info = parsed.user_info && typeof parsed.user_info === 'object' ? parsed.user_info : {};
    return { id: String(id), info };
  } catch {
    return undefined;
  }
}
