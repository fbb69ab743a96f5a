import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import type { WriteGeneration } from '../db/write-tracking.js';
import type { AuthUser } from './auth-user.js';
import { loadAuthUser } from './load-user.js';

export const SESSION_COOKIE = 'organizing_map_session';
// Writing last activity on every request would make every read a write; a minute's precision is enough.
const TOUCH_EVERY_MS = 60_000;
const MAX_CACHED = 10_000;

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
  generation: number;
}

/**
 * Sessions live in the database; the cookie holds a random token whose hash is the row id. With `writes` (the
 * read cache is on) a session and its user are kept in memory until the next write of any kind, so sign-out,
 * a change of user, role or permissions, or a session row changed by hand all take effect on the next request;
 * the idle and expiry checks run on every request as before.
 */
export class SessionStore {
  private readonly cache = new Map<string, Found>();

  constructor(
    private readonly db: Kysely<any>,
    private readonly config: Config,
    private readonly writes: WriteGeneration | null = null,
  ) {
    writes?.onBump(() => this.cache.clear());
  }

  private idleMs() {
    return this.config.session.idleMinutes * 60_000;
  }
  private rememberMs() {
    return this.config.session.rememberDays * 86_400_000;
  }

  /** Reads the session of a request, ending it when idle too long; sets request.session and request.user. */
  async resume(request: FastifyRequest) {
    request.session = null;
    request.user = null;
    const token = request.cookies[SESSION_COOKIE];
    if (!token || token.length > 200) return;
    const id = hashToken(token);
    const found = await this.find(id);
    if (!found) return;
    const { row } = found;
    const now = Date.now();
    const idle = now - new Date(row.last_activity_at).getTime();
    if (new Date(row.expires_at).getTime() <= now || (!row.remember && idle > this.idleMs())) {
      await this.db.deleteFrom('sessions').where('id', '=', id).execute();
      return;
    }
    if (idle > TOUCH_EVERY_MS) {
      const expires = new Date(now + (row.remember ? this.rememberMs() : this.idleMs()));
      await this.db.updateTable('sessions').set({ last_activity_at: new Date(now), expires_at: expires }).where('id', '=', id).execute();
    }
    request.session = { id, userId: row.user_id, impersonatorId: row.impersonator_id, remember: row.remember };
    request.user = found.user;
  }

  private async find(id: string): Promise<Found | null> {
    const cached = this.cache.get(id);
    if (cached && cached.generation === this.writes?.any) return cached;
    const generation = this.writes?.any ?? 0;
    const row = await this.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return null;
    const user = row.user_id ? await loadAuthUser(this.db, row.user_id, row.impersonator_id) : null;
    const found = { row, user, generation };
    if (this.writes && generation === this.writes.any) {
      if (this.cache.size >= MAX_CACHED) this.cache.clear();
      this.cache.set(id, found);
    }
    return found;
  }

  /** Starts a new session for the user (a new id at every sign-in, so a planted id is worthless). */
  async start(request: FastifyRequest, reply: FastifyReply, userId: number, options: { remember: boolean; impersonatorId?: number | null }) {
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
    reply.setCookie(SESSION_COOKIE, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
      ...(options.remember ? { maxAge: this.rememberMs() / 1000 } : {}),
    });
    request.session = { id, userId, impersonatorId: options.impersonatorId ?? null, remember: options.remember };
    request.user = await loadAuthUser(this.db, userId, options.impersonatorId ?? null);
  }

  async end(request: FastifyRequest, reply: FastifyReply) {
    if (request.session) await this.db.deleteFrom('sessions').where('id', '=', request.session.id).execute();
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    request.session = null;
    request.user = null;
  }

  /** Ends every session of a user except, optionally, the current one (after a password change). */
  async endAllFor(userId: number, exceptId?: string) {
    let query = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (exceptId) query = query.where('id', '!=', exceptId);
    await query.execute();
  }

  async purgeExpired() {
    await this.db.deleteFrom('sessions').where('expires_at', '<', new Date()).execute();
  }
}
