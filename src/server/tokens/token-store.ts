import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { AuthUser } from '../auth/auth-user.js';
import { loadAuthUser } from '../auth/load-user.js';
import { sameSecret } from '../auth/same-secret.js';
import type { DB } from '../db/schema.generated.js';
import { unauthenticated } from '../http/errors.js';
import type { ResourceRegistry } from '../records/registry.js';
import { type Abilities, narrowPermissions } from './abilities.js';

/** The token a request was made with (null for a session or nobody). */
export interface RequestToken {
  id: number;
  abilities: Abilities;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set with `request.user` when the request carries `Authorization: Bearer <token>`. */
    token: RequestToken | null;
  }
}

/** A token as its owner and administrators see it: never the token itself, which only its maker is shown, once. */
export interface TokenRow {
  id: number;
  user_id: number;
  name: string;
  abilities: string[];
  expires_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
}

const COLUMNS = ['id', 'user_id', 'name', 'abilities', 'expires_at', 'last_used_at', 'created_at'] as const;
/** Last use is written at most this often per token, so a script's every request is not also a write. */
const LAST_USED_EVERY_MS = 60_000;

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** `Bearer <token>` from the Authorization header; undefined when the header is not a bearer one. */
export function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : header.toLowerCase().startsWith('bearer') ? '' : undefined;
}

/**
 * Personal access tokens, Laravel Sanctum style (docs/api.md "Personal access tokens"): the plain token is
 * `<id>|<40 random characters>`, shown once; the table keeps the SHA-256 of its random part. A request with it acts as
 * its person, with their permissions narrowed by the token's abilities (abilities.ts), and needs no CSRF token (a
 * browser never sends one by itself).
 */
export class TokenStore {
  private readonly lastUsedWritten = new Map<number, number>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly resources: ResourceRegistry,
  ) {}

  async create(
    userId: number,
    input: { name: string; abilities: string[]; expires_at: Date | null },
  ): Promise<{ row: TokenRow; plainTextToken: string }> {
    const secret = randomBytes(30).toString('base64url');
    const row = (await this.db
      .insertInto('personal_access_tokens')
      .values({
        user_id: userId,
        name: input.name,
        token_hash: hashOf(secret),
        abilities: JSON.stringify(input.abilities),
        expires_at: input.expires_at,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow()) as TokenRow;
    return { row, plainTextToken: `${row.id}|${secret}` };
  }

  /** A person's tokens, newest first. */
  async list(userId: number): Promise<TokenRow[]> {
    return (await this.db
      .selectFrom('personal_access_tokens')
      .select(COLUMNS)
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .execute()) as TokenRow[];
  }

  async find(id: number): Promise<TokenRow | undefined> {
    return (await this.db
      .selectFrom('personal_access_tokens')
      .select(COLUMNS)
      .where('id', '=', id)
      .executeTakeFirst()) as TokenRow | undefined;
  }

  async revoke(id: number) {
    await this.db.deleteFrom('personal_access_tokens').where('id', '=', id).execute();
    this.lastUsedWritten.delete(id);
  }

  /** A record type's permission entity, by its URL name (`sites` → `site`). */
  private entityOf = (type: string) => {
    const def = this.resources.get(type);
    return def ? (def.permission ?? def.type) : null;
  };

  /**
   * Signs the request in with its bearer token: its person, permissions narrowed by the token's abilities. A token
   * that is malformed, unknown, revoked or expired, or whose person is gone, is a 401 (never a fall back to cookies).
   */
  async authenticate(request: FastifyRequest, token: string): Promise<RequestToken> {
    const [idText, secret] = token.split('|', 2);
    const id = Number(idText);
    if (!secret || !Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw unauthenticated();
    const row = await this.db
      .selectFrom('personal_access_tokens')
      .select(['id', 'user_id', 'token_hash', 'abilities', 'expires_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || !sameSecret(hashOf(secret), row.token_hash)) throw unauthenticated();
    if (row.expires_at && new Date(row.expires_at).getTime() <= Date.now()) throw unauthenticated();
    const person = await loadAuthUser(this.db, row.user_id);
    if (!person) throw unauthenticated();
    const abilities = row.abilities as string[];
    const user: AuthUser = {
      ...person,
      permissions: narrowPermissions(person.permissions, abilities, this.entityOf),
    };
    request.user = user;
    request.token = { id, abilities };
    await this.touch(id);
    return request.token;
  }

  private async touch(id: number) {
    const now = Date.now();
    if (now - (this.lastUsedWritten.get(id) ?? 0) < LAST_USED_EVERY_MS) return;
    if (this.lastUsedWritten.size >= 10_000) this.lastUsedWritten.clear();
    this.lastUsedWritten.set(id, now);
    await this.db
      .updateTable('personal_access_tokens')
      .set({ last_used_at: new Date(now) })
      .where('id', '=', id)
      .execute();
  }
}
