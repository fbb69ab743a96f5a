/**
 * How a record is named: THE record representation on the server (the client's is records/label.ts: name, title,
 * or first and last name). Pickers, exports, history, tasks and the activity feed name records with it, never by id.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { LINK_NAMES } from '../../common/link-names.js';
import { canOnEntity } from '../../common/permissions.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.generated.js';
import type { RecordService } from './record-service.js';
import type { FieldSpec, ResourceDefinition } from './resource.js';

const PERSON = `first_name || ' ' || last_name`;
/** Resources named by columns other than `name`. */
const LABELS: Readonly<Record<string, string>> = {
  users: PERSON,
  contacts: PERSON,
  members: PERSON,
  recruits: PERSON,
  grievances: 'title',
  tasks: 'title',
  exports: 'file_name',
  documents: 'file_name',
};

/** The SQL naming a row of `def` over its columns (`t.` unqualified), or undefined when its rows have no name. */
export function labelSql(def: ResourceDefinition): string | undefined {
  if (def.optionLabel) return def.optionLabel;
  if (LABELS[def.name]) return LABELS[def.name];
  if ('name' in def.fields || def.customFields) return 'name';
  if ('title' in def.fields) return 'title';
  return undefined;
}

/** The same, as a Kysely expression. */
export function labelExpression(def: ResourceDefinition): RawBuilder<string> | undefined {
  const label = labelSql(def);
  return label ? sql<string>`${sql.raw(label)}` : undefined;
}

/**
 * The name of a row of `def` as a person whose role hides the fields `hidden` may see it: none (undefined) when the
 * name is made of a hidden field (a contact's hidden last name is no part of the name shown to them).
 */
export function shownLabelExpression(
  def: ResourceDefinition,
  hidden: ReadonlySet<string>,
): RawBuilder<string> | undefined {
  const label = labelSql(def);
  if (!label) return undefined;
  const columns = label.match(/[a-z_][a-z0-9_]*/gi) ?? [];
  return columns.some((column) => hidden.has(column)) ? undefined : labelExpression(def);
}

/**
 * The query naming these rows of `def` that `user` may read (the type's read permission and the list's row rules),
 * or undefined when there is nothing to ask: no name, no ids, or a type the person may not read.
 */
async function namesQuery(
  records: RecordService,
  db: Kysely<DB>,
  def: ResourceDefinition,
  user: AuthUser | null,
  ids: readonly number[],
) {
  const wanted = [...new Set(ids.filter((id) => Number.isInteger(id)))];
  if (wanted.length === 0) return undefined;
  if (user && !canOnEntity(user, def.permission ?? def.type, 'read')) return undefined;
  const label = shownLabelExpression(def, (await records.access.mask(user, def)).hidden);
  if (!label) return undefined;
  return (await records.visibleRows(db, def, user, 'with'))
    .select(['t.id', label.as('label')])
    .where('t.id', 'in', wanted);
}

const named = (rows: Array<{ id: unknown; label: unknown }>) =>
  rows
    .filter((row) => typeof row.label === 'string' && row.label.trim())
    .map((row) => [Number(row.id), String(row.label).trim()] as const);

/**
 * The names of these rows of `def` that `user` may read, by id. Rows the person may not read (or that are gone) are
 * left out: the caller shows what it has without them.
 */
export async function namesOf(
  records: RecordService,
  db: Kysely<DB>,
  def: ResourceDefinition,
  user: AuthUser | null,
  ids: readonly number[],
): Promise<Map<number, string>> {
  const query = await namesQuery(records, db, def, user, ids);
  return new Map(query ? named(await query.execute()) : []);
}

const ids = (value: unknown): number[] =>
  (Array.isArray(value) ? value : value === null || value === undefined ? [] : [value])
    .map(Number)
    .filter(Number.isInteger);

/**
 * Puts on each record the names of the records its relations point at (`LINK_NAMES`), as `user` may read them: one
 * query for the whole page (a part per relation), never one per row; a linked record the person may not read gets
 * no name. `targetOf` says which resource a relation points at.
 */
export async function nameLinks(
  records: RecordService,
  user: AuthUser,
  fields: Record<string, FieldSpec>,
  rows: Record<string, any>[],
  targetOf: (references: NonNullable<FieldSpec['references']>) => ResourceDefinition | undefined,
): Promise<void> {
  const relations = Object.entries(fields).flatMap(([field, spec]) => {
    const target = spec.references ? targetOf(spec.references) : undefined;
    return target ? [{ field, target }] : [];
  });
  // A type that links to nothing answers as it is.
  if (relations.length === 0) return;
  const names = new Map<string, Map<number, string>>();
  const namesOfField = (field: string) => names.get(field) ?? names.set(field, new Map()).get(field)!;
  // Names of types everyone reads alike come from memory where kept (kept-names.ts); the others, and those not kept
  // yet, from the database.
  const toKeep: Array<{ field: string; target: ResourceDefinition; stamp: string; ids: number[] }> = [];
  const kept = records.keptNames;
  const parts = [];
  for (const { field, target } of relations) {
    // A linked record whose name is made of a field the person's role hides gets no name.
    if (!shownLabelExpression(target, (await records.access.mask(user, target)).hidden)) continue;
    let wanted = rows.flatMap((row) => ids(row[field]));
    if (
      kept &&
      labelSql(target) &&
      canOnEntity(user, target.permission ?? target.type, 'read') &&
      (await records.readsAlike(target, user))
    ) {
      const { known, missing } = kept.lookup(target, [...new Set(wanted)]);
      for (const [id, name] of known) if (name !== null) namesOfField(field).set(id, name);
      if (missing.length) toKeep.push({ field, target, stamp: kept.stamp(target), ids: missing });
      wanted = missing;
    }
    const query = await namesQuery(records, records.db, target, user, wanted);
    if (query) parts.push(query.select(sql<string>`${field}::text`.as('field')));
  }
  const found = parts.length ? await parts.reduce((all, part) => all.unionAll(part as never)).execute() : [];
  for (const row of found as Array<{ id: unknown; label: unknown; field: string }>) {
    for (const [id, name] of named([row])) namesOfField(row.field).set(id, name);
  }
  for (const { field, target, stamp, ids: read } of toKeep)
    kept!.keep(target, stamp, read, names.get(field) ?? new Map());
  for (const row of rows) {
    const labels: Record<string, Record<number, string>> = {};
    for (const [field, byId] of names) {
      for (const id of ids(row[field])) {
        const name = byId.get(id);
        if (name !== undefined) (labels[field] ??= {})[id] = name;
      }
    }
    row[LINK_NAMES] = labels;
  }
}
