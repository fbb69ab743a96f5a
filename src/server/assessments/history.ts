import type { AuthUser } from '../auth/auth-user.js';
import type { ResourceDefinition, WriteContext } from '../records/resource.js';

/** The fields of a person that make up their assessment. */
export const ASSESSMENT_FIELDS = ['assessment', 'is_leader', 'on_committee'] as const;

interface Change {
  person_type: string;
  person_id: number;
  level: string | null;
  previous_level: string | null;
  is_leader: boolean;
  on_committee: boolean;
  user_id: number | null;
}

/** The history row of a write, when it changed the assessment (created with one, or changed any of its fields). */
function changeOf(type: string, record: { id?: unknown }, ctx: WriteContext & { action: string }): Change | null {
  const values = ctx.values ?? {};
  if (!ASSESSMENT_FIELDS.some((field) => field in values)) return null;
  const before = ctx.existing ?? {};
  const after = { ...before, ...values };
  const changed = ASSESSMENT_FIELDS.some((field) => (before[field] ?? null) !== (after[field] ?? null));
  const created = ctx.action === 'create' && (after.assessment || after.is_leader || after.on_committee);
  if (ctx.action === 'update' ? !changed : !created) return null;
  return {
    person_type: type,
    person_id: Number(record.id),
    level: after.assessment ?? null,
    previous_level: ctx.action === 'update' ? (before.assessment ?? null) : null,
    is_leader: Boolean(after.is_leader),
    on_committee: Boolean(after.on_committee),
    user_id: (ctx.user as AuthUser | null)?.id ?? null,
  };
}

async function keep(trx: WriteContext['trx'], changes: Array<Change | null>) {
  const rows = changes.filter((change): change is Change => change !== null);
  if (rows.length) await trx.insertInto('assessments').values(rows).execute();
}

/**
 * A contact, recruit or member type whose assessment (`assessment` 1 to 5, `is_leader`, `on_committee`) is kept with
 * its history: every create or update that changes them, by hand, by a conversation or by an import, writes a row
 * of `assessments` in the same transaction (the person's own revision records the change as well).
 */
export function withAssessmentHistory(def: ResourceDefinition): ResourceDefinition {
  const hooks = def.hooks ?? {};
  return {
    ...def,
    hooks: {
      ...hooks,
      async beforeWrite(values, ctx) {
        const prepared = (await hooks.beforeWrite?.(values, ctx)) ?? values;
        for (const flag of ['is_leader', 'on_committee'])
          if (flag in prepared && prepared[flag] === null) prepared[flag] = false;
        return prepared;
      },
      async afterWrite(record, ctx) {
        await hooks.afterWrite?.(record, ctx);
        if (ctx.action === 'create' || ctx.action === 'update') await keep(ctx.trx, [changeOf(def.type, record, ctx)]);
      },
      async afterWriteMany(writes, trx) {
        await hooks.afterWriteMany?.(writes, trx);
        await keep(
          trx,
          writes.map((write) => changeOf(def.type, write.record, write.ctx)),
        );
      },
    },
  };
}
