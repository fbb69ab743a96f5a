/**
 * Pusher Channels protocol 7: names, error codes and the shape of frames on the wire.
 * https://pusher.com/docs/channels/library_auth_reference/pusher-websockets-protocol/
 */

export const PROTOCOL_VERSION = 7;

/** Sent to the client as `activity_timeout`; the client pings after this much silence, and so do we. */
export const DEFAULT_ACTIVITY_TIMEOUT_SECONDS = 30;
/** How long a silent client has to answer our ping before we drop it. */
export const DEFAULT_PONG_TIMEOUT_SECONDS = 30;

export const SOCKET_ID_PATTERN = /^\d+\.\d+$/;
export const CHANNEL_NAME_PATTERN = /^[A-Za-z0-9_\-=@,.;]+$/;
export const CHANNEL_NAME_MAX_LENGTH = 200;
/** pusher-js subscribes to this after `pusher:signin`; the server uses it to reach one user's sockets. */
export const USER_CHANNEL_PREFIX = '#server-to-user-';

/** Largest frame a browser may send; protocol messages are small and Pusher itself caps client events at 10 KB. */
export const MAX_CLIENT_FRAME_BYTES = 64 * 1024;

/**
 * Close and error codes from the protocol. 4000-4099: do not reconnect unchanged; 4100-4199: reconnect
 * after a pause; 4200-4299: reconnect at once; 4300-4399: errors that leave the connection open.
 */
export const ErrorCode = {
  AppDoesNotExist: 4001,
  UnsupportedProtocol: 4007,
  Unauthorized: 4009,
  ReconnectNow: 4200,
  PongNotReceived: 4201,
  ClientEventRejected: 4301,
} as const;

export type ChannelKind = 'public' | 'private' | 'presence' | 'user';

export function channelKind(channel: string): ChannelKind {
  if (channel.startsWith('presence-')) return 'presence';
  if (channel.startsWith('private-')) return 'private';
  if (channel.startsWith(USER_CHANNEL_PREFIX)) return 'user';
  return 'public';
}

export function isValidChannelName(channel: unknown): channel is string {
  return typeof channel === 'string' && channel.length <= CHANNEL_NAME_MAX_LENGTH && CHANNEL_NAME_PATTERN.test(channel);
}

export function isValidSocketId(socketId: unknown): socketId is string {
  return typeof socketId === 'string' && SOCKET_ID_PATTERN.test(socketId);
}

/**
 * The protocol carries `data` as a JSON string inside the JSON frame. A string is taken as already encoded
 * (the same rule the Pusher HTTP API and the `pusher` SDK follow), anything else is encoded here.
 */
export function encodeData(data: unknown): string {
  return typeof data === 'string' ? data : JSON.stringify(data ?? {});
}

export function frame(event: string, data: unknown, channel?: string, extra?: Record<string, unknown>): string {
  return JSON.stringify({ event, ...(channel === undefined ? {} : { channel }), data: encodeData(data), ...extra });
}

/**
 * The frames of one event on many channels: the same text as `frame(event, data, channel, extra)` for each channel,
 * with the data (a record, a few kilobytes) written into JSON once rather than once per channel (a change told to
 * 70 people on their own channels, two events each, spent 2 ms on it).
 */
export function framesOf(event: string, data: unknown, extra?: Record<string, unknown>): (channel: string) => string {
  const head = `{"event":${JSON.stringify(event)},"channel":`;
  const tail = JSON.stringify({ data: encodeData(data), ...extra }).slice(1);
  return (channel) => `${head}${JSON.stringify(channel)},${tail}`;
}

export function errorFrame(code: number | null, message: string): string {
  return frame('pusher:error', { code, message });
}

export interface ClientMessage {
  event: string;
  channel?: string;
  data: Record<string, unknown>;
  /** Client events pass their data through untouched, so keep it as sent. */
  rawData: unknown;
}

/** Null when the frame is not a protocol message at all. Clients send `data` as an object, some as a string. */
export function parseClientMessage(raw: string): ClientMessage | null {
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!message || typeof message !== 'object' || typeof (message as any).event !== 'string') return null;
  const { event, channel, data } = message as { event: string; channel?: unknown; data?: unknown };
  let fields: unknown = data;
  if (typeof data === 'string') {
    try {
      fields = JSON.parse(data);
    } catch {
      fields = {};
    }
  }
  return {
    event,
    channel: typeof channel === 'string' ? channel : undefined,
    data: fields && typeof fields === 'object' ? (fields as Record<string, unknown>) : {},
    rawData: data,
  };
}
