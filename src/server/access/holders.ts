import { type Kysely, type RawBuilder, sql } from 'kysely';
import { PARENT_LINKS } from '../../common/access-rules.js';
import { dynamicTables } from '../db/dynamic-tables.js';
import type { DB } from '../db/schema.generated.js';
import { fieldExpression } from '../records/list-query.js';
import type { RecordService } from '../records/record-service.js';
import { definitionFields, type FieldSpec, type ResourceDefinition } from '../records/resource.js';
import type { Revision } from '../records/revisions.js';
import { OWN_WORK_TYPES, personFields, teamFields } from './reach.js';

/**
 * Whose records are, kept in `record_holders` (migration 076) for the types that keep them (`keepsHolders`): for each
 * record, the people a person field names ('field') or whose work (a task, visit or note) hangs on it ('work'), and
 * the teams a team field names, with copies of the record's date, name key, category and liveness. The access
 * policy's "own" and "team" rules read it (access/compile.ts), and so does a list under them (access/held-page.ts).
 */

/** Where the record types are found by name (the access policy's registry; the built-in ones for a loader). */
export interface RecordTypes {
  definitionOf(type: string): ResourceDefinition | undefined;
}

/**
 * After records were written in `db` (a transaction), with their revisions: the holders of the written records of a
 * type that keeps them, and of the records the written work hangs on (before and after the write), written again.
 * The one writer calls it with every write's revisions (RecordService.recordWrites).
 */
export async function keepHolders(records: RecordService, db: Kysely<DB>, revisions: readonly Revision[]) {
  if (!revisions.length) return;
  const held = new Map<string, Set<number>>();
  /** Records whose holders stay as they were: only the copies of their name key and category are brought up to date. */
  const copiesOnly = new Map<string, Set<number>>();
  const add = (type: unknown, id: unknown, onlyCopies = false) => {
    const n = Number(id);
    if (typeof type !== 'string' || !Number.isInteger(n) || n <= 0) return;
    const def = records.access.definitionOf(type);
    if (!def?.keepsHolders) return;
    const into = onlyCopies ? copiesOnly : held;
    let ids = into.get(def.type);
    if (!ids) into.set(def.type, (ids = new Set()));
    ids.add(n);
  };
  const work = new Map<string, number[]>();
  const holding = new Map<string, ReadonlySet<string>>();
  for (const revision of revisions) {
    add(revision.type, revision.id, await leavesHoldersAlone(records, db, revision, holding));
    const link = (OWN_WORK_TYPES as readonly string[]).includes(revision.type) ? PARENT_LINKS[revision.type] : null;
    if (!link) continue;
    // The record the work hung on before the write (moved away, or deleted for good) loses its person.
    const before = (field: string) => {
      const change = revision.changes[field];
      return Array.isArray(change) ? change[0] : revision.record?.[field];
    };
    const beforeId = before(link.column);
    if (beforeId !== undefined && beforeId !== null)
      add(link.type ?? before(link.typeColumn!) ?? revision.record?.[link.typeColumn!], beforeId);
    work.set(revision.type, [...(work.get(revision.type) ?? []), revision.id]);
  }
  // The records the work hangs on now.
  for (const [type, ids] of work) {
    const def = records.access.definitionOf(type);
    const link = PARENT_LINKS[type];
    if (!def || !link) continue;
    const rows = await dynamicTables(db)
      .selectFrom(def.table)
      .select([
        sql<unknown>`${sql.ref(link.column)}`.as('parent'),
        (link.typeColumn ? sql<string>`${sql.ref(link.typeColumn)}` : sql<string>`${link.type}`).as('parent_type'),
      ])
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) add(row.parent_type, row.parent);
  }
  for (const [type, ids] of held) {
    const def = records.access.definitionOf(type)!;
    await refreshHolders(records.access, db, def, [...ids]);
  }
  for (const [type, ids] of copiesOnly) {
    const rest = [...ids].filter((id) => !held.get(type)?.has(id));
    if (rest.length) await refreshCopies(records.access.definitionOf(type)!, db, rest);
  }
}

/**
 * An edit that changed none of a record's person or team fields leaves its holders as they were (its name or type may
 * have changed, of which `record_holders` keeps copies): the commonest write, a site renamed or its type changed,
 * then costs one small update instead of every holder worked out again. A person or team field retyped or deleted
 * works out every record's holders again (schemas/schema-fields-resource.ts).
 */
async function leavesHoldersAlone(
  records: RecordService,
  db: Kysely<DB>,
  revision: Revision,
  /** The person and team fields of each type, worked out once per call of `keepHolders`. */
  holding: Map<string, ReadonlySet<string>>,
): Promise<boolean> {
  if (revision.action !== 'updated') return false;
  const def = records.access.definitionOf(revision.type);
  if (!def?.keepsHolders) return false;
  const fields = holding.get(def.type) ?? (await holdingFields(def, db));
  holding.set(def.type, fields);
  return !Object.keys(revision.changes).some((field) => fields.has(field));
}

/** The slugs of a type's person and team fields. */
async function holdingFields(def: ResourceDefinition, db: Kysely<DB>): Promise<ReadonlySet<string>> {
  const fields = await definitionFields(def, db);
  return new Set([...personFields(fields), ...teamFields(fields)].map(([field]) => field));
}

/** The copies `record_holders` keeps of these records' name key and category, where they changed. */
async function refreshCopies(def: ResourceDefinition, db: Kysely<DB>, ids: readonly number[]) {
  const nameKey = def.storedSortKeys?.name;
  const copies: Array<[RawBuilder<unknown>, RawBuilder<unknown>]> = [];
  if (nameKey) copies.push([sql`name_key`, sql.ref(`t.${nameKey}`)]);
  if (def.categoryColumn) copies.push([sql`category`, sql`${sql.ref(`t.${def.categoryColumn}`)}::text`]);
  if (!copies.length) return;
  await sql`update record_holders h set ${sql.join(copies.map(([column, value]) => sql`${column} = ${value}`))}
    from ${sql.table(def.table)} t
    where h.record_type = ${def.type} and h.record_id in (${sql.join(ids)}) and t.id = h.record_id and (${sql.join(
      copies.map(([column, value]) => sql`h.${column} is distinct from ${value}`),
      sql` or `,
    )})`.execute(db);
}

/**
 * The holders of these records of `def` (every record of it with `ids` 'all') worked out again from their fields and
 * the work on them: what the writer keeps, and what a loader that wrote rows with SQL of its own calls after (the demo
 * data, the benchmarks).
 */
export async function refreshHolders(
  types: RecordTypes,
  db: Kysely<DB>,
  def: ResourceDefinition,
  ids: readonly number[] | 'all',
) {
  if (ids !== 'all' && !ids.length) return;
  const fields = await definitionFields(def, db);
  const these = (column: RawBuilder<unknown>) =>
    ids === 'all' ? sql<boolean>`${column} is not null` : sql<boolean>`${column} in (${sql.join(ids)})`;
  const parts: RawBuilder<unknown>[] = [];
  for (const [field, spec] of personFields(fields))
    parts.push(named(def.table, field, spec, sql`r.id`, these(sql`r.id`), 'user', 'field'));
  for (const [field, spec] of teamFields(fields))
    parts.push(named(def.table, field, spec, sql`r.id`, these(sql`r.id`), 'team', 'field'));
  for (const childType of OWN_WORK_TYPES) {
    const link = PARENT_LINKS[childType];
    const child = types.definitionOf(childType);
    if (!link || !child || childType === def.type || (link.type && link.type !== def.type)) continue;
    const ofType = link.typeColumn ? sql` and r.${sql.ref(link.typeColumn)} = ${def.type}` : sql``;
    const live = child.softDelete ? sql` and r.deleted_at is null` : sql``;
    const parent = sql`r.${sql.ref(link.column)}`;
    for (const [field, spec] of personFields(await definitionFields(child, db)))
      parts.push(named(child.table, field, spec, parent, sql`${these(parent)}${ofType}${live}`, 'user', 'work'));
  }
  const nameKey = def.storedSortKeys?.name;
  const copies = sql`t.created_at, ${nameKey ? sql.ref(`t.${nameKey}`) : sql`null`}, ${
    def.categoryColumn ? sql`${sql.ref(`t.${def.categoryColumn}`)}::text` : sql`null`
  }, ${def.softDelete ? sql`t.deleted_at is null` : sql`true`}`;
  const scope = def.scope ? sql` and t.${sql.ref(def.scope.column)} = ${def.scope.value}` : sql``;
  await sql`delete from record_holders where record_type = ${def.type}${
    ids === 'all' ? sql`` : sql` and record_id in (${sql.join(ids)})`
  }`.execute(db);
  if (!parts.length) return;
  await sql`insert into record_holders (record_type, record_id, user_id, team_id, via, created_at, name_key, category, live)
    select distinct ${def.type}, p.record_id, p.user_id, p.team_id, p.via, ${copies}
    from (${sql.join(parts, sql` union all `)}) p join ${sql.table(def.table)} t on t.id = p.record_id${scope}`.execute(
    db,
  );
}

/**
 * The (record, person or team) pairs field `field` of the rows `r` of `table` names, where `where` holds: `record` is
 * the id of the record they make a holder of (the row's own, or the one the work row hangs on).
 */
function named(
  table: string,
  field: string,
  spec: FieldSpec,
  record: RawBuilder<unknown>,
  where: RawBuilder<unknown>,
  holder: 'user' | 'team',
  via: 'field' | 'work',
): RawBuilder<unknown> {
  let join = sql``;
  let value: RawBuilder<unknown>;
  let valid = sql``;
  const storage = spec.storage;
  if (typeof storage === 'object') {
    const constants = Object.entries(storage.where ?? {}).map(
      ([column, constant]) => sql` and fh.${sql.ref(column)} = ${constant}`,
    );
    join = sql` join ${sql.table(storage.pivot)} fh on fh.${sql.ref(storage.ownKey)} = r.id${sql.join(constants, sql``)}`;
    value = sql`fh.${sql.ref(storage.otherKey)}`;
  } else if (storage === 'custom' && spec.kind === 'integer[]') {
    const list = sql`(r.custom -> ${sql.lit(field)})`;
    join = sql` cross join lateral jsonb_array_elements_text(case when jsonb_typeof(${list}) = 'array' then ${list} else '[]'::jsonb end) fh(v)`;
    value = sql`fh.v::int`;
    valid = sql` and fh.v ~ '^[0-9]{1,9}$'`;
  } else if (storage === 'custom') {
    value = sql`(${fieldExpression(field, spec, 'r')})::int`;
  } else {
    value = sql`r.${sql.ref(field)}`;
  }
  const [userId, teamId] = holder === 'user' ? [value, sql`null::integer`] : [sql`null::integer`, value];
  return sql`select ${record} as record_id, ${userId} as user_id, ${teamId} as team_id, ${via}::text as via
    from ${sql.table(table)} r${join} where ${where}${valid} and ${value} is not null`;
}

/**
 * Who a record is held by, for `heldBy`: people and teams (each as SQL of ids), and the people a person field names
 * (a test of a holder's user id: who.ts `isTeamPerson`).
 */
export interface Holders {
  people?: RawBuilder<number>;
  fieldPeople?: (person: RawBuilder<number>) => RawBuilder<boolean>;
  teams?: RawBuilder<number>;
}

/**
 * Each kind of holder as a condition on `record_holders h`, each one range of one of its covering indexes (by user:
 * with `via`; by team).
 */
export function holderRanges(holders: Holders): RawBuilder<boolean>[] {
  const ranges: RawBuilder<boolean>[] = [];
  if (holders.people) ranges.push(sql<boolean>`h.user_id in (${holders.people})`);
  if (holders.fieldPeople)
    ranges.push(sql<boolean>`h.via = 'field' and ${holders.fieldPeople(sql<number>`h.user_id`)}`);
  if (holders.teams) ranges.push(sql<boolean>`h.team_id in (${holders.teams})`);
  return ranges;
}

/**
 * The ids of `def`'s records these holders hold (as SQL). With `record`, asked of that one record (its rows found by
 * record); without, gathered as one index-only range per kind of holder, appended: an `or` of them would read them
 * through a bitmap of the table's pages instead, every page of the holders of a team (the list under "own or team"
 * read ten times the pages its page of ids did, most of them past the embedded database's 16 MB of buffers).
 */
export function heldBy(def: ResourceDefinition, holders: Holders, record?: RawBuilder<unknown>): RawBuilder<number> {
  const ranges = holderRanges(holders);
  // `offset 0` keeps the `exists` around it a lookup of the record's own rows: otherwise the planner may hash every
  // holder of the type first (1,100 rows for the demo's sites, 100,000 for a vendor's) to test one record.
  if (record)
    return sql<number>`select h.record_id from record_holders h where h.record_type = ${def.type} and h.record_id = ${record} and (${sql.join(
      ranges.map((range) => sql`(${range})`),
      sql` or `,
    )}) offset 0`;
  return sql<number>`${sql.join(
    ranges.map((range) => sql`select h.record_id from record_holders h where h.record_type = ${def.type} and ${range}`),
    sql` union all `,
  )}`;
}
