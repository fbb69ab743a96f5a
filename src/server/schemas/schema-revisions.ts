import type { Transaction } from 'kysely';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.generated.js';
import type { RecordService } from '../records/record-service.js';

/**
 * Every change to a record type is a revision of the schema itself (`revisionable_type: 'schema'`, GET
 * /api/revisions?type=schema&revisionable_id={id}), written in the change's transaction: a field added, changed or
 * deleted (`field:{slug}`: [before, after], the field as {name, type, category, required, options, position}), what
 * that did to the values (`values:{slug}`), a logic block written (`logic:{id}`). The data service writes it.
 */
export function reviseSchema(
  records: RecordService,
  trx: Transaction<DB>,
  schemaId: number,
  user: AuthUser | null,
  changes: Record<string, [unknown, unknown]>,
): Promise<void> {
  return records.reviseWithin(trx, { type: 'schema', id: schemaId }, user, changes);
}

/** A field as its schema's revisions show it. */
export function fieldSnapshot(field: Record<string, any> | null | undefined) {
  if (!field) return null;
  const { name, type, category, required, options, position } = field;
  return { name, type, category, required, options, position };
}

/** A logic block, its conditions and actions as its schema's revisions show it. */
export function blockSnapshot(
  block: Record<string, any> | null | undefined,
  conditions?: readonly Record<string, any>[],
  actions?: readonly Record<string, any>[],
) {
  if (!block) return null;
  return {
    description: block.description ?? null,
    trigger: block.trigger,
    match: block.match,
    clear_hidden: Boolean(block.clear_hidden),
    conditions: (conditions ?? block.conditions ?? []).map((c: Record<string, any>) => ({
      source: c.source,
      operator: c.operator,
      value: c.value ?? null,
    })),
    actions: (actions ?? block.actions ?? []).map((a: Record<string, any>) => ({
      target: a.target,
      action: a.action,
      value: a.value ?? null,
    })),
  };
}

/** A condition or an action as its schema's revisions show it (without ids and times). */
export function logicPart(row: Record<string, any> | null | undefined) {
  if (!row) return null;
  const { id: _id, logic_block_id: _block, created_at: _created, updated_at: _updated, ...rest } = row;
  return rest;
}
