import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import type { DB } from '../db/schema.generated.js';
import type { WriteGeneration } from '../db/write-tracking.js';
import type { AuthUser } from './auth-user.js';
import { setCsrfCookie } from './csrf.js';
import { loadAuthUser, loadSessionWithUser } from './load-user.js';

export const SESSION_COOKIE = 'organizing_map_session';
const MAX_CACHED = 10_000;
const MAX_REMEMBERED_ACTIVITY = 50_000;

export interface SessionState {
  id: string;
  userId: number | null;
  impersonatorId: number | null;
  remember: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    session: SessionState | null;
  }
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

interface Found {
  row: Record<string, any>;
  user: AuthUser | null;
  /** The write stamp read before the row was (WriteGeneration.stamp). */
  stamp: string;
}

/** A session's last activity as this process saw it, and the value of the row's column when it last read or wrote it. */
interface Activity {
  at: number;
  stored: number;
}

/** The session each signed-in person object was loaded for (a person object belongs to one session). */
const sessionOfUser = new WeakMap<AuthUser, string>();

/** The id of the session the request's person is signed in with (undefined for the server's own writes). */
export function sessionIdOf(user: AuthUser | null | undefined): string | undefined {
  return user ? sessionOfUser.get(user) : undefined;
}

export interface SessionStoreOptions {
  /**
   * The write generation when the read cache is on: sessions and their person are then kept in memory until the next
   * write to the tables they are read from (write-tracking.ts ACCOUNT_TABLES; of any process, when several share a
   * PostgreSQL), and last activity is written through at most once a minute. Without it at most once a second.
   */
  writes?: WriteGeneration | null;
}

/**
 * Sessions live in the database; the cookie holds a random token whose hash is the row id. With `writes` (the
 * read cache is on) a session and its user are kept in memory until the next write that may change one (to
 * sessions, users, roles, teams or team_user, or a statement whose table is not known), so sign-out, a change of
 * user, role, permissions or teams, or a session row changed by hand all take effect on the next request; the
 * writes of records (15 requests in 100 of the load bench) no longer make every session be read again.
 *
 * The idle timeout is exact without a write per request: each request's time is kept in memory and the row's
 * `last_activity_at` is written through at most every `writeEveryMs`; the idle check uses the later of the two.
 * A row moved back by hand (an operator ending sessions) is believed. Between processes the row is at most
 * `writeEveryMs` behind, which is why that is one second on PostgreSQL.
 */
export class SessionStore {
  private readonly cache = new Map<string, Found>();
  private readonly activity = new Map<string, Activity>();
  private readonly writes: WriteGeneration | null;
  private readonly writeEveryMs: number;
  private readonly csrfSecret: string;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly config: Config,
    options: SessionStoreOptions = {},
  ) {
    this.writes = options.writes ?? null;
    this.writeEveryMs = this.writes ? 60_000 : 1_000;
    // The app key is set before the app is built (main.ts); a process without one still signs consistently itself.
    this.csrfSecret = config.appKey ?? randomBytes(32).toString('hex');
    this.writes?.onBump((_kind, accounts) => {
      if (accounts) this.cache.clear();
    });
  }

  private idleMs() {
    return this.config.session.idleMinutes * 60_000;
  }
  private rememberMs() {
    return this.config.session.rememberDays * 86_400_000;
  }

  /**
   * The CSRF token of a session: derived from its id with the app key, so it is bound to that session, changes at
   * every sign-in (a new session) and cannot be made by anyone who does not hold the session (auth/csrf.ts).
   */
  csrfToken(sessionId: string): string {
    return createHmac('sha256', this.csrfSecret).update(`csrf|${sessionId}`).digest('base64url');
  }

  /** Reads the session of a request, ending it when idle too long; sets request.session and request.user. */
  async resume(request: FastifyRequest) {
    request.session = null;
    request.user = null;
    const token = request.cookies[SESSION_COOKIE];
    if (!token || token.length > 200) return;
    const id = hashToken(token);
    const found = await this.find(id);
    if (!found) {
      this.activity.delete(id);
      return;
    }
    const { row } = found;
    const now = Date.now();
    const stored = new Date(row.last_activity_at).getTime();
    const seen = this.activity.get(id);
    // The later of the row and this process's own record, unless the row was moved back since this process read it.
    const last = seen && stored >= seen.stored ? Math.max(stored, seen.at) : stored;
    const expired = row.remember ? new Date(row.expires_at).getTime() <= now : now - last > this.idleMs();
    if (expired) {
      this.activity.delete(id);
      await this.db.deleteFrom('sessions').where('id', '=', id).execute();
      return;
    }
    if (now - stored >= this.writeEveryMs) {
      await this.writeActivity(id, row.remember, now);
    } else {
      this.remember(id, { at: now, stored });
    }
    request.session = { id, userId: row.user_id, impersonatorId: row.impersonator_id, remember: row.remember };
    request.user = found.user;
  }

  private async writeActivity(id: string, remember: boolean, at: number) {
    const expires = new Date(at + (remember ? this.rememberMs() : this.idleMs()));
    await this.db
      .updateTable('sessions')
      .set({ last_activity_at: new Date(at), expires_at: expires })
      .where('id', '=', id)
      .execute();
    this.remember(id, { at, stored: at });
  }

  private remember(id: string, activity: Activity) {
    this.activity.delete(id);
    this.activity.set(id, activity);
    if (this.activity.size <= MAX_REMEMBERED_ACTIVITY) return;
    // Oldest first: those are idle longest, and their rows are at most `writeEveryMs` behind anyway.
    for (const key of this.activity.keys()) {
      this.activity.delete(key);
      if (this.activity.size <= MAX_REMEMBERED_ACTIVITY * 0.9) break;
    }
  }

  /** Writes the activity only this process knows of to the table (at shutdown, so a restart loses none of it). */
  async flush() {
    for (const [id, seen] of this.activity) {
      if (seen.at > seen.stored) {
        await this.db
          .updateTable('sessions')
          .set({ last_activity_at: new Date(seen.at) })
          .where('id', '=', id)
          .where('last_activity_at', '<', new Date(seen.at))
          .execute();
      }
    }
    this.activity.clear();
  }

  private async find(id: string): Promise<Found | null> {
    const cached = this.cache.get(id);
    const stamp = this.writes ? await this.writes.stamp('accounts') : '';
    if (cached && cached.stamp === stamp) return cached;
    const read = await loadSessionWithUser(this.db, id);
    if (!read) return null;
    const { row, user } = read;
    if (user) sessionOfUser.set(user, id);
    const found = { row, user, stamp };
    if (this.writes && stamp === (await this.writes.stamp('accounts'))) {
      if (this.cache.size >= MAX_CACHED) this.cache.clear();
      this.cache.set(id, found);
    }
    return found;
  }

  /**
   * Starts a new session for the user (a new id at every sign-in, so a planted id is worthless) and hands the
   * browser the CSRF token of the new session.
   */
  async start(
    request: FastifyRequest,
    reply: FastifyReply,
    userId: number,
    options: { remember: boolean; impersonatorId?: number | null },
  ) {
    if (request.session) await this.db.deleteFrom('sessions').where('id', '=', request.session.id).execute();
    const token = randomBytes(32).toString('base64url');
    const id = hashToken(token);
    const now = Date.now();
    await this.db
      .insertInto('sessions')
      .values({
        id,
        user_id: userId,
        impersonator_id: options.impersonatorId ?? null,
        remember: options.remember,
        ip: request.ip,
        user_agent: String(request.headers['user-agent'] ?? '').slice(0, 300),
        last_activity_at: new Date(now),
        expires_at: new Date(now + (options.remember ? this.rememberMs() : this.idleMs())),
      })
      .execute();
    this.remember(id, { at: now, stored: now });
    reply.setCookie(SESSION_COOKIE, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
      ...(options.remember ? { maxAge: this.rememberMs() / 1000 } : {}),
    });
    setCsrfCookie(request, reply, this.csrfToken(id));
    request.session = { id, userId, impersonatorId: options.impersonatorId ?? null, remember: options.remember };
    request.user = await loadAuthUser(this.db, userId, options.impersonatorId ?? null);
    if (request.user) sessionOfUser.set(request.user, id);
  }

  async end(request: FastifyRequest, reply: FastifyReply) {
    if (request.session) {
      this.activity.delete(request.session.id);
      await this.db.deleteFrom('sessions').where('id', '=', request.session.id).execute();
    }
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    request.session = null;
    request.user = null;
  }
}

/**
 * Ends every session of a person except, optionally, one: after their password changes (by themselves, an
 * administrator or a reset link), whoever held their old password is signed out everywhere else. `db` is the
 * transaction of the change.
 */
export async function endSessionsOf(db: Kysely<DB>, userId: number, exceptId?: string) {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptId) query = query.where('id', '!=', exceptId);
  await query.execute();
}
