import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { DB } from '../db/schema.generated.js';
import { readTurfIds } from './turf.js';
import type { Who } from './who.js';

/** The tables a person's turf is worked out from (access/turf.ts): their regions, teams and memberships. */
const TURF_TABLES = ['regions', 'region_users', 'teams', 'team_user', 'users'];
/** Past this many people, the kept turfs start again (a bound, not a need). */
const MAX_PEOPLE = 10_000;

/**
 * The ids of each person's turf regions, which a rule gathering the turf names (AccessPolicy.where), kept until one of
 * TURF_TABLES is written, so a list costs no extra statement. With the embedded database this process is the only
 * writer: its counts of writes by table tell. On PostgreSQL with the read cache on, the counters every process moves
 * tell (their `accounts` count, which writes of these tables move: db/write-tracking.ts ACCOUNT_TABLES), read once for
 * all asking at once; without it, another process's change could not be seen, and they are read for each rule.
 */
export class KeptTurfs {
  private readonly kept = new Map<number, { stamp: string; ids: number[] }>();

  /** `stampOf` answers null where nothing tells another process's change (PostgreSQL without the read cache). */
  constructor(private readonly stampOf: () => string | Promise<string> | null) {}

  static of(database: Pick<Database, 'kind' | 'writes'>): KeptTurfs {
    const { writes } = database;
    if (database.kind === 'pglite')
      return new KeptTurfs(() => TURF_TABLES.map((table) => writes.tableStamp(table)).join('|'));
    return new KeptTurfs(() => (writes.isShared ? writes.stamp('accounts') : null));
  }

  async ids(db: Kysely<DB>, userId: number | undefined, who: Who): Promise<number[]> {
    const stamp = userId === undefined ? null : await this.stampOf();
    if (stamp === null || userId === undefined) return readTurfIds(db, who);
    // A transaction's own writes move the stamps as each statement ends, so what was kept before it is still its
    // answer while they match.
    const known = this.kept.get(userId);
    if (known?.stamp === stamp) return known.ids;
    const ids = await readTurfIds(db, who);
    // Read in a transaction, they may be its own uncommitted change: not for anyone else.
    if (db.isTransaction) return ids;
    if (this.kept.size >= MAX_PEOPLE) this.kept.clear();
    this.kept.set(userId, { stamp, ids });
    return ids;
  }
}
