import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/schema.generated.js';
import type { ResourceDefinition } from '../records/resource.js';
import type { RoleSubject } from './kept-roles.js';
import type { AccessPolicy, FieldMask } from './policy.js';
import { asSql } from './predicate.js';
import { whoIsRow } from './who.js';

/** Who hears of a record's change, by role: the whole role's channel, or some of its members; with the role's mask. */
export interface Readers {
  roleId: number;
  /** 'role': every member reads it (the role's channel); else the ids of the members who do. */
  members: 'role' | number[];
  mask: FieldMask;
}

/**
 * The readers of a changed record, every role at once (docs/realtime.md): a role whose rule admits every record of
 * the type (its category checked here) hears on its channel; for a role whose rule is a condition or depends on the
 * person (their own, team, turf), one query asks the record's row which roles, and which of their members, it
 * admits, so each member is tested in SQL against their own teams and turf, not one query each. A record gone for
 * good (no row to test) reaches the roles that read every record of the type only. `roles`: every role
 * (access/kept-roles.ts).
 */
export async function readersOf(
  db: Kysely<DB>,
  access: AccessPolicy,
  def: ResourceDefinition,
  record: Record<string, unknown>,
  roles: readonly RoleSubject[],
): Promise<Readers[]> {
  const out: Readers[] = [];
  /** The roles asked about, by the test of the record's row (its SQL and values): roles alike are asked together. */
  const asked = new Map<string, { row: RawBuilder<unknown>; personal: boolean; roleIds: number[] }>();
  const masks = new Map<number, FieldMask>();
  const id = Number.isInteger(record.id) ? Number(record.id) : null;
  for (const subject of roles) {
    if (!access.mayRead(subject, def)) continue;
    if (def.categoryColumn && !access.may(subject, def, 'read', (record[def.categoryColumn] as string | null) ?? null))
      continue;
    const compiled = await access.of(subject, def);
    masks.set(subject.role_id, compiled.mask);
    if (compiled.rules.read === 'all' || (id === null && (await access.onlyCategories(subject, def)) !== null)) {
      out.push({ roleId: subject.role_id, members: 'role', mask: compiled.mask });
      continue;
    }
    const predicate = compiled.compiled.read(whoIsRow('u', { type: def.type, values: record }));
    if (predicate === false) continue;
    // A rule that admits every record whoever asks (a card's parent rule for a role that reads every campaign):
    // the role's channel, as for 'all'.
    if (predicate === true) {
      out.push({ roleId: subject.role_id, members: 'role', mask: compiled.mask });
      continue;
    }
    if (id === null) continue;
    const scope = def.scope ? sql` and t.${sql.ref(def.scope.column)} = ${def.scope.value}` : sql``;
    const row = sql`select 1 from ${sql.table(def.table)} t where t.id = ${id}${scope} and ${asSql(predicate)}`;
    // A condition the same for every member is asked once, for the role's channel.
    const personal = await access.personal(subject, def);
    const text = row.compile(db);
    const key = JSON.stringify([personal, text.sql, text.parameters]);
    const alike = asked.get(key);
    if (alike) alike.roleIds.push(subject.role_id);
    else asked.set(key, { row, personal, roleIds: [subject.role_id] });
  }
  if (asked.size) {
    // One part per test (several roles limited to their turf share one), so the statement stays small to plan.
    const parts = [...asked.values()].map(({ row, personal, roleIds }) =>
      personal
        ? sql`select u.role_id, u.id as user_id from users u where u.role_id in (${sql.join(roleIds)}) and u.deleted_at is null and exists (${row})`
        : sql`select r.id as role_id, null::int as user_id from unnest(array[${sql.join(roleIds)}]::int[]) r(id) where exists (${row})`,
    );
    const { rows } = await sql<{ role_id: number; user_id: number }>`${sql.join(parts, sql` union all `)}`.execute(db);
    const byRole = new Map<number, number[] | 'role'>();
    for (const row of rows) {
      const roleId = Number(row.role_id);
      const held = byRole.get(roleId);
      if (row.user_id === null) byRole.set(roleId, 'role');
      else if (held !== 'role') byRole.set(roleId, [...(held ?? []), Number(row.user_id)]);
    }
    for (const [roleId, members] of byRole) out.push({ roleId, members, mask: masks.get(roleId)! });
  }
  return out;
}
