import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` and base64 key bytes; each
 * message is signed over `{webhook-id}.{webhook-timestamp}.{body}` with HMAC-SHA256, sent as `v1,<base64>`.
 */

/** A new secret: 24 random bytes, shown once to whoever made the webhook or automation. */
export function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
}

/** The three headers of a signed message. `timestamp`: seconds since 1970. */
export function signedHeaders(secret: string, id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${signature(secret, id, timestamp, body)}`,
  };
}

/** How far a message's timestamp may be from now (replays of old messages are refused). */
const TOLERANCE_SECONDS = 5 * 60;

/**
 * Whether a message received carries a valid signature of `secret` (any of the space-separated `v1,` signatures),
 * with a timestamp within five minutes of `now`.
 */
export function verifySignature(
  secret: string,
  headers: { id?: string; timestamp?: string; signature?: string },
  body: string,
  now = Date.now(),
): boolean {
  const { id, timestamp, signature: sent } = headers;
  if (!id || !timestamp || !sent || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(now / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(signature(secret, id, Number(timestamp), body));
  return sent.split(' ').some((part) => {
    const [version, value] = part.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
