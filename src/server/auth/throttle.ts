import { sql, type Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import { HttpError } from '../http/errors.js';

/** Counts failed sign-ins per email and address in the database, so every server process shares the count. */
export class LoginThrottle {
  constructor(
    private readonly db: Kysely<any>,
    private readonly config: Config,
  ) {}

  async assertAllowed(key: string) {
    const row = await this.db.selectFrom('login_attempts').selectAll().where('key', '=', key).executeTakeFirst();
    if (!row) return;
    const waitMs = new Date(row.reset_at).getTime() - Date.now();
    if (row.attempts >= this.config.throttle.maxAttempts && waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new HttpError(429, `Too many sign-in attempts. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`, { 'Retry-After': String(seconds) });
    }
  }

  async recordFailure(key: string) {
    const resetAt = new Date(Date.now() + this.config.throttle.decaySeconds * 1000);
    await sql`
      insert into login_attempts (key, attempts, reset_at) values (${key}, 1, ${resetAt})
      on conflict (key) do update set
        attempts = case when login_attempts.reset_at < now() then 1 else login_attempts.attempts + 1 end,
        reset_at = case when login_attempts.reset_at < now() then ${resetAt} else login_attempts.reset_at end
    `.execute(this.db);
  }

  async clear(key: string) {
    await this.db.deleteFrom('login_attempts').where('key', '=', key).execute();
  }
}
