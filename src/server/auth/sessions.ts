import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import { loadAuthUser } from './load-user.js';

export const SESSION_COOKIE = 'organizing_map_session';
// Writing last activity on every request would make every read a write; a minute's precision is enough.
const TOUCH_EVERY_MS = 60_000;

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

/** Sessions live in the database; the cookie holds a random token whose hash is the row id. */
export class SessionStore {
  constructor(
    private readonly db: Kysely<any>,
    private readonly config: Config,
  ) {}

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
    const row = await this.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return;
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
    if (row.user_id) request.user = await loadAuthUser(this.db, row.user_id, row.impersonator_id);
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
