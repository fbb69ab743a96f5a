import type { Kysely } from 'kysely';
import type { RelationTarget, RelationTargetInfo } from '../../common/schema-types.js';
import type { DB } from '../db/schema.generated.js';
import { schemaStore } from './schema-store.js';

/**
 * What a relation field may point at, from the record types stored now (those made in the app included): read
 * through `db` when it is a transaction (its own writes seen), from the cache otherwise.
 */
export async function schemaRelationTargets(db: Kysely<DB>): Promise<Record<RelationTarget, RelationTargetInfo>> {
  return (await schemaStore(db).snapshot(db.isTransaction ? db : undefined)).targets;
}
