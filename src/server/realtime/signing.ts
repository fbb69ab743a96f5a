import { createHmac, randomInt } from 'node:crypto';
import { sameSecret } from '../auth/same-secret.js';

/**
 * The Pusher auth signatures: `key:HMAC_SHA256_hex(secret, text)`. The same strings are produced by
 * /broadcasting/auth (signing) and checked by the hub on subscribe and sign-in (verifying), so both sides
 * build the signed text through one function each.
 */
export class Signer {
  constructor(
    readonly key: string,
    private readonly secret: string,
  ) {}

  channel(socketId: string, channel: string, channelData?: string): string {
    return this.sign(channelText(socketId, channel, channelData));
  }

  user(socketId: string, userData: string): string {
    return this.sign(`${socketId}::user::${userData}`);
  }

  verifyChannel(auth: unknown, socketId: string, channel: string, channelData?: string): boolean {
    return this.verify(auth, channelText(socketId, channel, channelData));
  }

  verifyUser(auth: unknown, socketId: string, userData: string): boolean {
    return this.verify(auth, `${socketId}::user::${userData}`);
  }

  private sign(text: string): string {
    return `${this.key}:${createHmac('sha256', this.secret).update(text).digest('hex')}`;
  }

  private verify(auth: unknown, text: string): boolean {
    return typeof auth === 'string' && sameSecret(auth, this.sign(text));
  }
}

function channelText(socketId: string, channel: string, channelData?: string): string {
  return channelData === undefined ? `${socketId}:${channel}` : `${socketId}:${channel}:${channelData}`;
}

/** Random rather than sequential: socket ids must not collide between server processes sharing one database. */
export function newSocketId(): string {
  return `${randomInt(1, 2 ** 47)}.${randomInt(1, 2 ** 47)}`;
}
