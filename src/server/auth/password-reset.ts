import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import type { DB } from '../db/schema.generated.js';

/** How long a reset link works (once). */
export const RESET_TOKEN_MINUTES = 60;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A new password-reset link for `email` (lower case): the token's hash is kept, never the token, and every earlier
 * link of that address stops working. The link is made from APP_URL, never from the request, so a forged Host header
 * cannot send a person's token to another site. Whoever receives the link must not log it.
 */
export async function issueResetLink(
  db: Kysely<DB>,
  config: Config,
  email: string,
): Promise<{ link: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const createdAt = new Date();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('password_resets').where('email', '=', email).execute();
    await trx
      .insertInto('password_resets')
      .values({ email, token_hash: hashToken(token), created_at: createdAt })
      .execute();
  });
  const link = new URL('/password/update', config.appUrl);
  link.searchParams.set('token', token);
  link.searchParams.set('email', email);
  return { link: link.toString(), expiresAt: new Date(createdAt.getTime() + RESET_TOKEN_MINUTES * 60_000) };
}
