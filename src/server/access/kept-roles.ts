import type { Kysely } from 'kysely';
import type { RolePolicy } from '../../common/access-rules.js';
import type { Database } from '../db/database.js';
import type { DB } from '../db/schema.generated.js';
import { KeptByStamp } from '../db/write-tracking.js';
import type { Subject } from './policy.js';

/** A role as the access policy decides for it: no person, only the role's permissions and rules. */
export type RoleSubject = Subject & { role_id: number; permissions: string[]; policy: RolePolicy };

/**
 * Every role, for deciding for all of them at once (the realtime fan-out, access/fan-out.ts), kept until the roles
 * table is written. A change is announced for each record it wrote, and without this list each announcement read
 * every role again (issue 36: three times per conversation logged); the same role objects each time also let the
 * access policy know a role it has compiled without hashing its permissions again.
 *
 * How a change is seen: with the embedded database this process is the only writer, and its count of writes to
 * `roles` moves with each one; on PostgreSQL with shared write counters (the read cache on), the accounts counter every
 * process moves (one small query). On PostgreSQL with READ_CACHE=0 another process's change cannot be seen, so the roles
 * are read every time.
 */
export class KeptRoles {
  private readonly kept = new KeptByStamp<RoleSubject[]>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly stampOf: (() => string | Promise<string>) | null,
  ) {}

  static of(database: Pick<Database, 'kind' | 'db' | 'writes'>): KeptRoles {
    const { writes } = database;
    if (database.kind === 'pglite') return new KeptRoles(database.db, () => writes.tableStamp('roles'));
    return new KeptRoles(database.db, writes.isShared ? () => writes.stamp('accounts') : null);
  }

  async all(): Promise<RoleSubject[]> {
    if (!this.stampOf) return readRoles(this.db);
    return this.kept.get(await this.stampOf(), () => readRoles(this.db));
  }
}

async function readRoles(db: Kysely<DB>): Promise<RoleSubject[]> {
  const rows = await db
    .selectFrom('roles')
    .select(['id', 'permissions', 'policy'])
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map((role) => ({
    role_id: Number(role.id),
    permissions: (role.permissions as string[]) ?? [],
    policy: (role.policy as RolePolicy) ?? {},
  }));
}
