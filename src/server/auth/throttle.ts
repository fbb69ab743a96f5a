import { type Kysely, sql } from 'kysely';
import type { Config } from '../config/config.js';
import { HttpError } from '../http/errors.js';

/** One counter: its key in `login_attempts` and how many failures it allows per decay time. */
interface Counter {
  key: string;
  max: number;
}

/**
 * Counts failed sign-ins in the database, so every server process shares the count: per account and address
 * (LOGIN_MAX_ATTEMPTS) and per address alone (LOGIN_MAX_ATTEMPTS_PER_ADDRESS), so one address trying many
 * accounts is stopped too. Password reset requests are counted the same way (`scope` 'reset').
 */
export class LoginThrottle {
  constructor(
    private readonly db: Kysely<any>,
    private readonly config: Config,
  ) {}

  /** The counters of an attempt: the account at this address, and the address. */
  counters(scope: 'login' | 'reset', email: string, ip: string): Counter[] {
    const prefix = scope === 'login' ? '' : `${scope}|`;
    return [
      { key: `${prefix}${email}|${ip}`, max: this.config.throttle.maxAttempts },
      { key: `${prefix}address|${ip}`, max: this.config.throttle.maxAttemptsPerAddress },
    ];
  }

  async assertAllowed(counters: Counter[]) {
    const rows = await this.db
      .selectFrom('login_attempts')
      .selectAll()
      .where(
        'key',
        'in',
        counters.map((c) => c.key),
      )
      .execute();
    let waitMs = 0;
    for (const row of rows) {
      const counter = counters.find((c) => c.key === row.key)!;
      const remaining = new Date(row.reset_at).getTime() - Date.now();
      if (row.attempts >= counter.max && remaining > waitMs) waitMs = remaining;
    }
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new HttpError(
        429,
        `Too many sign-in attempts. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
        { 'Retry-After': String(seconds) },
      );
    }
  }

  async recordFailure(counters: Counter[]) {
    const resetAt = new Date(Date.now() + this.config.throttle.decaySeconds * 1000);
    for (const { key } of counters) {
      await sql`
        insert into login_attempts (key, attempts, reset_at) values (${key}, 1, ${resetAt})
        on conflict (key) do update set
          attempts = case when login_attempts.reset_at < now() then 1 else login_attempts.attempts + 1 end,
          reset_at = case when login_attempts.reset_at < now() then ${resetAt} else login_attempts.reset_at end
      `.execute(this.db);
    }
  }

  /**
   * After a successful sign-in: the account's counter starts over. The address's does not, or one account the
   * guesser holds would reset it between guesses at others.
   */
  async clear(key: string) {
    await this.db.deleteFrom('login_attempts').where('key', '=', key).execute();
  }
}
