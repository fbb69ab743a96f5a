import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.generated.js';
import { hashToken, RESET_TOKEN_MINUTES } from './password-reset.js';

/**
 * The account rows sign-in, registration, impersonation and password resets read and write (auth/routes.ts). Records
 * themselves (a registered user, a new password) are written through the record service by the routes.
 */
export class Accounts {
  constructor(private readonly db: Kysely<DB>) {}

  /** The live account with this address (lower case), with its password hash. */
  findByEmail(email: string): Promise<{ id: number; first_name: string; password: string } | undefined> {
    return this.db
      .selectFrom('users')
      .select(['id', 'first_name', 'password'])
      .where(this.db.fn('lower', ['email']), '=', email)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** A live account by id, with its role (who may act as it). */
  findById(id: number): Promise<{ id: number; role_id: number | null } | undefined> {
    return this.db
      .selectFrom('users')
      .select(['id', 'role_id'])
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** When the person last signed in (kept on the account, not a change of the record: no revision). */
  async signedIn(id: number) {
    await this.db.updateTable('users').set({ last_login_at: new Date() }).where('id', '=', id).execute();
  }

  /** The role a person who registers gets: `user`, when it exists. */
  async registrationRoleId(): Promise<number | null> {
    const role = await this.db
      .selectFrom('roles')
      .select('id')
      .where('slug', '=', 'user')
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return role?.id ?? null;
  }

  /**
   * Uses a reset token: the id of the live account it was sent for, or null when the token is unknown, used, expired
   * or for another address. Using a token voids it and every other token of that address.
   */
  async useResetToken(token: string, email: string): Promise<number | null> {
    const account = await this.db.transaction().execute(async (trx) => {
      const reset = await trx
        .selectFrom('password_resets')
        .selectAll()
        .where('token_hash', '=', hashToken(token))
        .forUpdate()
        .executeTakeFirst();
      if (!reset || reset.used_at || reset.email !== email) return null;
      if (Date.now() - new Date(reset.created_at).getTime() > RESET_TOKEN_MINUTES * 60_000) return null;
      await trx.deleteFrom('password_resets').where('email', '=', reset.email).execute();
      return trx
        .selectFrom('users')
        .select('id')
        .where(trx.fn('lower', ['email']), '=', email)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    });
    return account?.id ?? null;
  }

  /** The password hash of an account (checking the current password before a change). */
  async passwordOf(id: number): Promise<string> {
    const row = await this.db.selectFrom('users').select('password').where('id', '=', id).executeTakeFirstOrThrow();
    return row.password;
  }
}
