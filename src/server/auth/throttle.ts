import { type Kysely, sql } from 'kysely';
import type { Config } from '../config/config.js';
import type { DB } from '../db/schema.generated.js';
import { HttpError } from '../http/errors.js';

/**
 * One counter: its key in `login_attempts` and how many failures it allows per decay time. Past `max` and below
 * `lockout`, only a correct password gets through (the address's counter at sign-in); past `lockout` (or `max`
 * when there is none), nothing does.
 */
interface Counter {
  key: string;
  max: number;
  lockout?: number;
}

/** What the counters allow of an attempt that is not refused outright. */
export interface Allowance {
  /** Only a correct password may sign in: a wrong one is answered 429 with this many seconds to wait. */
  correctOnlySeconds: number | null;
}

const tooMany = (seconds: number) =>
  new HttpError(429, `Too many sign-in attempts. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`, {
    'Retry-After': String(seconds),
  });

/**
 * Counts failed sign-ins in the database, so every server process shares the count (docs/security.md "Sessions and
 * sign-in"):
 *
 * - per account and address (LOGIN_MAX_ATTEMPTS): past it, that account is refused from that address, whatever the
 *   password: guessing one person's password stays slow;
 * - per address (LOGIN_MAX_ATTEMPTS_PER_ADDRESS): past it, the address may still sign in with a correct password of
 *   an account within its own limit, and every wrong one is refused. Many people share an office's address: one
 *   person's typos, or a guesser among them, does not lock the others out;
 * - per address, everything (LOGIN_ADDRESS_LOCKOUT_ATTEMPTS): past it, the address is refused altogether, so trying
 *   many accounts from one address stays bounded.
 *
 * Password reset requests are counted the same way (`scope` 'reset'), with the per-address limit strict.
 */
export class LoginThrottle {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly config: Config,
  ) {}

  /** The counters of an attempt: the account at this address, and the address. */
  counters(scope: 'login' | 'reset', email: string, ip: string): Counter[] {
    const { maxAttempts, maxAttemptsPerAddress, addressLockoutAttempts } = this.config.throttle;
    const prefix = scope === 'login' ? '' : `${scope}|`;
    return [
      { key: `${prefix}${email}|${ip}`, max: maxAttempts },
      {
        key: `${prefix}address|${ip}`,
        max: maxAttemptsPerAddress,
        ...(scope === 'login' ? { lockout: addressLockoutAttempts } : {}),
      },
    ];
  }

  /** Refuses (429) an attempt a counter stops outright; says whether only a correct password may get through. */
  async assertAllowed(counters: Counter[]): Promise<Allowance> {
    const rows = await this.db
      .selectFrom('login_attempts')
      .selectAll()
      .where(
        'key',
        'in',
        counters.map((c) => c.key),
      )
      .execute();
    let refusedMs = 0;
    let correctOnlyMs = 0;
    for (const row of rows) {
      const counter = counters.find((c) => c.key === row.key)!;
      const remaining = new Date(row.reset_at).getTime() - Date.now();
      if (remaining <= 0) continue;
      if (row.attempts >= (counter.lockout ?? counter.max)) refusedMs = Math.max(refusedMs, remaining);
      else if (row.attempts >= counter.max) correctOnlyMs = Math.max(correctOnlyMs, remaining);
    }
    if (refusedMs > 0) throw tooMany(Math.ceil(refusedMs / 1000));
    return { correctOnlySeconds: correctOnlyMs > 0 ? Math.ceil(correctOnlyMs / 1000) : null };
  }

  /** Counts a failure; then, when the counters allowed only a correct password, refuses the attempt with 429. */
  async recordFailure(counters: Counter[], allowance?: Allowance) {
    const resetAt = new Date(Date.now() + this.config.throttle.decaySeconds * 1000);
    for (const { key } of counters) {
      await sql`
        insert into login_attempts (key, attempts, reset_at) values (${key}, 1, ${resetAt})
        on conflict (key) do update set
          attempts = case when login_attempts.reset_at < now() then 1 else login_attempts.attempts + 1 end,
          reset_at = case when login_attempts.reset_at < now() then ${resetAt} else login_attempts.reset_at end
      `.execute(this.db);
    }
    if (allowance?.correctOnlySeconds) throw tooMany(allowance.correctOnlySeconds);
  }

  /**
   * One more request under `key` within `windowSeconds` (a public form's submissions from one address), counted in
   * the same table so every process shares it: past `max`, 429 with `refusal` and the seconds to wait.
   */
  async take(key: string, max: number, windowSeconds: number, refusal: string) {
    const resetAt = new Date(Date.now() + windowSeconds * 1000);
    const { rows } = await sql<{ attempts: number; reset_at: Date | string }>`
      insert into login_attempts (key, attempts, reset_at) values (${key}, 1, ${resetAt})
      on conflict (key) do update set
        attempts = case when login_attempts.reset_at < now() then 1 else login_attempts.attempts + 1 end,
        reset_at = case when login_attempts.reset_at < now() then ${resetAt} else login_attempts.reset_at end
      returning attempts, reset_at`.execute(this.db);
    const [row] = rows;
    if (row && Number(row.attempts) > max) {
      const seconds = Math.max(1, Math.ceil((new Date(row.reset_at).getTime() - Date.now()) / 1000));
      throw new HttpError(429, `${refusal} Please try again in ${Math.ceil(seconds / 60)} minutes.`, {
        'Retry-After': String(seconds),
      });
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
