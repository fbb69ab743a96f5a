import { timingSafeEqual } from 'node:crypto';

/** Whether two secrets (tokens, signatures) are equal, in time that does not tell how much of them matched. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
