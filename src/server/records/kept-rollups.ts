import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { KeptBy, Sql } from '../../common/field-types/define.js';
import { valueExpression } from '../../common/field-types/sql.js';
import type { DB } from '../db/schema.generated.js';
import type { RecordService } from './record-service.js';
import type { FieldSpec, ResourceDefinition } from './resource.js';
import type { Revision } from './revisions.js';

/**
 * Kept rollups (FieldSpec `kept`): the value of a rollup is kept on each of its records, under its slug in `custom`,
 * so lists filter and sort on it through an index instead of working it out for every row. The record service writes
 * it, in the transaction of every write of a record it reads (`keepRollups`, beside the write's revisions: creates,
 * updates, deletes, restores, imports, bulk edits, undo), and for every record when the field is saved
 * (`keepRollupValues`, schemas/schema-fields-resource.ts). The kept value counts every live related row; a reader
 * whose rule narrows the related rows has it worked out over theirs (RecordService.readerFields).
 */

/** A kept rollup of the schemas: the rows of the type it belongs to, and its slug (SchemaSnapshot keptRollups). */
export interface KeptRollupRef {
  owner: NonNullable<FieldSpec['references']>;
  slug: string;
}

const SQL = sql as unknown as Sql;
const raw = (fragment: unknown) => fragment as RawBuilder<unknown>;

/** The ids of a JSON parameter, so a statement takes thousands of them as one value. */
const idsIn = (ids: readonly number[]) =>
  sql`(select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::integer)`;

/**
 * Writes the value of the rollup `slug` of `owner` into its records `ids` (every record: 'all'), worked out over every
 * live related row, in one statement.
 */
export async function keepRollupValues(
  records: RecordService,
  db: Kysely<DB>,
  owner: ResourceDefinition,
  slug: string,
  spec: FieldSpec,
  ids: readonly number[] | 'all',
) {
  if (ids !== 'all' && !ids.length) return;
  const bound = (await records.readerFields(null, { [slug]: spec }, { db, live: true }))[slug];
  if (!bound.computed) return;
  const value = raw(bound.computed(SQL, 't'));
  // As a record carries it (records/computed-values.ts): numbers as numbers, days as `YYYY-MM-DD`.
  const json =
    spec.kind === 'date' ? sql`to_jsonb(to_char(${value}, 'YYYY-MM-DD'))` : sql`to_jsonb((${value})::float8)`;
  const scope = owner.scope ? sql` and t.${sql.ref(owner.scope.column)} = ${owner.scope.value}` : sql``;
  const which = ids === 'all' ? sql`` : sql` and t.id in ${idsIn(ids)}`;
  await sql`update ${sql.table(owner.table)} as t
    set custom = jsonb_set(coalesce(t.custom, '{}'::jsonb), array[${slug}]::text[], coalesce(${json}, 'null'::jsonb))
    where true${scope}${which}`.execute(db);
}

/** The record ids a value of a relation holds (one id, or a list of them). */
function heldIds(value: unknown): number[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map(Number).filter((id) => Number.isInteger(id) && id > 0);
}

/** A write of this record of the related type may move the value: made, deleted, restored, or a field it reads changed. */
const relatedMoves = (revision: Revision, by: KeptBy) =>
  (revision.action !== 'updated' && revision.action !== 'imported') ||
  by.reads.some((field) => field in revision.changes);

/** A write of the rollup's own record moves it: made or restored, or (through its relation) the relation changed. */
const ownerMoves = (revision: Revision, by: KeptBy) => {
  if (revision.action === 'deleted') return false;
  if (revision.action === 'updated') return by.direction === 'through' && by.link in revision.changes;
  return true;
};

/**
 * The records of `owner` whose value the written related rows `ids` move: those their relation points at (before the
 * write and after it: `before`), or those whose relation points at them.
 */
async function ownersOf(
  records: RecordService,
  db: Kysely<DB>,
  owner: ResourceDefinition,
  related: ResourceDefinition,
  by: KeptBy,
  ids: readonly number[],
): Promise<number[]> {
  if (by.direction === 'to-this') {
    const link = (await records.fields(related, db))[by.link];
    if (!link) return [];
    const value = raw(valueExpression(SQL, by.link, link, 'r'));
    const held =
      link.kind === 'integer[]' ? sql`jsonb_array_elements_text(${value})::integer` : sql`(${value})::integer`;
    const { rows } = await sql<{ id: number | null }>`select distinct ${held} as id from ${sql.table(related.table)} r
      where r.id in ${idsIn(ids)}`.execute(db);
    return rows.flatMap((row) => heldIds(row.id));
  }
  const scope = owner.scope ? sql` and t.${sql.ref(owner.scope.column)} = ${owner.scope.value}` : sql``;
  const { rows } = await sql<{ id: number }>`select t.id from ${sql.table(owner.table)} t
    where true${scope} and exists (select 1 from ${sql.table(related.table)} r
      where r.id in ${idsIn(ids)} and ${raw(by.join(SQL, 't'))})`.execute(db);
  return rows.map((row) => Number(row.id));
}

/**
 * After records were written in `db` (a transaction), with their revisions: the kept rollups reading them, or
 * belonging to them, worked out again for the records whose value the writes move.
 */
export async function keepRollups(records: RecordService, db: Kysely<DB>, revisions: readonly Revision[]) {
  if (!revisions.length) return;
  const kept = await records.keptRollups(db);
  if (!kept.length) return;
  const written = new Set(revisions.map((revision) => revision.type));
  for (const ref of kept) {
    const owner = records.targetOf(ref.owner);
    if (!owner) continue;
    const spec = (await records.fields(owner, db))[ref.slug];
    const by = spec?.kept ? spec.keptBy : undefined;
    const related = by && spec.readsRows ? records.targetOf(spec.readsRows) : undefined;
    if (!by || !related || !(written.has(owner.type) || written.has(related.type))) continue;
    const owners = new Set<number>();
    const relatedIds: number[] = [];
    for (const revision of revisions) {
      if (revision.type === owner.type && ownerMoves(revision, by)) owners.add(revision.id);
      if (revision.type !== related.type || !relatedMoves(revision, by)) continue;
      relatedIds.push(revision.id);
      // The record the relation pointed at before the write (moved away, or deleted for good) loses it.
      if (by.direction === 'to-this') {
        const change = revision.changes[by.link];
        if (Array.isArray(change)) for (const id of heldIds(change[0])) owners.add(id);
        for (const id of heldIds(revision.record?.[by.link])) owners.add(id);
      }
    }
    if (relatedIds.length) for (const id of await ownersOf(records, db, owner, related, by, relatedIds)) owners.add(id);
    await keepRollupValues(records, db, owner, ref.slug, spec, [...owners]);
  }
}
