import { type Kysely, sql } from 'kysely';
import {
  normaliseChoices,
  type SchemaField,
  type SchemaFieldOptions,
  type SchemaFieldType,
} from '../../common/schema-types.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.generated.js';
import { ValidationError } from '../http/errors.js';
import type { RecordService } from '../records/record-service.js';
import { fieldSpecFor } from './field-specs.js';
import {
  convertValue,
  countChoices,
  countHeld,
  type FieldSnapshot,
  readHeld,
  type ValueChange,
  type ValueHome,
  valueHome,
} from './field-values.js';
import { schemaRelationTargets } from './relation-targets.js';
import { recordsLeftFailing } from './rule-failures.js';

/**
 * What a change to one field of a record type does to the records, the logic, the importers and the exports of
 * that type, worked out before it is made (GET|POST /api/schema-fields/{id}/impact, the schema editor's
 * confirmation) and made the same way when it is saved (schema-fields-resource.ts), in the write's transaction:
 * - deleting a field archives its values (field_value_archive) and takes them out of the records, removes the logic
 *   blocks whose conditions read it and the actions that set, show or hide it; importers that map it are left to
 *   show that they need attention (imports/importer-problems.ts);
 * - a new type or options that change the kind of value convert each value that can become the new kind and
 *   archive the others;
 * - removing a choice that records hold needs `choice_map` (the removed choice → another choice or null, empty):
 *   those records are rewritten (a revision each), and the logic comparing with the old choice follows the new one.
 */
export interface FieldImpact {
  action: 'delete' | 'update';
  field: { id: number; slug: string; name: string; type: SchemaFieldType };
  /** Records holding a value of the field, live and in the trash. */
  records: { live: number; trashed: number };
  /** Values the change takes out of the records into the archive. */
  archived: number;
  /** Values rewritten in the new kind (a retype). */
  converted: number;
  /**
   * A relation pointed at other records with values held: they are ids of the old target's records, never read as the
   * new one's. The change waits for `retarget`: `archive` (into the archive) or `empty` (a revision each).
   */
  retarget: { from: string; to: string; records: number; decided?: 'archive' | 'empty' } | null;
  /** A field of several values becoming a field of one: records holding several keep the first, the rest archived. */
  kept_first: number;
  /** Records a choice remap leaves without fields the type's rules then require (they keep the new value). */
  left_failing: { records: number; fields: string[] } | null;
  /** Choices taken away that records hold or the logic uses, with how many records, and where the change maps them. */
  choices: Array<{ value: string; label: string; records: number; in_logic: boolean; mapped_to?: string | null }>;
  logic_blocks: Array<{
    id: number;
    description: string | null;
    effect: 'removed' | 'action removed' | 'uses the field';
  }>;
  importers: Array<{ id: number; name: string; uses: string[] }>;
  exports: Array<{ id: number; status: string }>;
  /** What must be decided before the change can be saved. */
  blocking: string[];
  /** The above in sentences, for the confirmation. */
  summary: string[];
}

export interface FieldChange {
  /** null: the field is deleted. */
  next: { type?: SchemaFieldType; options?: SchemaFieldOptions } | null;
  /** A removed choice → the choice its records get instead, or null (empty). */
  choiceMap?: Record<string, string | null>;
  /** A relation pointed at another target while records hold values: archive them or empty them. */
  retarget?: 'archive' | 'empty';
}

interface SchemaRef {
  id: number;
  type: string;
  resource: string;
  name_singular: string;
  name_plural: string;
}

type Field = Pick<SchemaField, 'id' | 'slug' | 'name' | 'type' | 'options' | 'required' | 'category' | 'column'>;

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

const ARRAY_KINDS = new Set(['enum[]', 'integer[]']);

/** The choices the type's logic compares the field with or sets it to. */
async function choicesInLogic(db: Kysely<DB>, field: Field): Promise<Set<string>> {
  const ref = `field:${field.id}`;
  const [conditions, actions] = await Promise.all([
    db.selectFrom('logic_conditions').select('value').where('source', '=', ref).execute(),
    db
      .selectFrom('logic_actions')
      .select('value')
      .where('target', '=', ref)
      .where('action', '=', 'set-value')
      .execute(),
  ]);
  return new Set([
    ...conditions.map((row) => String(row.value ?? '')),
    ...actions.map((row) => (typeof row.value === 'string' ? row.value : JSON.stringify(row.value))),
  ]);
}

/** The change's effect on the values: what the new field makes of each value held. */
async function valuePlan(db: Kysely<DB>, home: ValueHome, field: Field, change: FieldChange) {
  const next = change.next!;
  const targets = await schemaRelationTargets(db);
  const type = next.type ?? field.type;
  const options = next.options ?? field.options ?? {};
  const before = fieldSpecFor({ ...field, column: field.column }, targets);
  const after = fieldSpecFor({ ...field, type, options, column: field.column }, targets);
  const oldChoices = normaliseChoices(field.options?.choices);
  const newValues = new Set(normaliseChoices(options.choices).map((choice) => choice.value));
  const removed =
    (before.kind === 'enum' || before.kind === 'enum[]') && (after.kind === 'enum' || after.kind === 'enum[]')
      ? oldChoices.filter((choice) => !newValues.has(choice.value))
      : [];
  const counts = await countChoices(
    db,
    home,
    removed.map((choice) => choice.value),
  );
  const inLogic = removed.length ? await choicesInLogic(db, field) : new Set<string>();
  const choices = removed
    .filter((choice) => (counts.get(choice.value) ?? 0) > 0 || inLogic.has(choice.value))
    .map((choice) => ({
      value: choice.value,
      label: choice.label,
      records: counts.get(choice.value) ?? 0,
      in_logic: inLogic.has(choice.value),
      mapped_to: change.choiceMap?.[choice.value],
    }));
  const retyped = before.kind !== after.kind || (type !== field.type && !field.column);
  const rewrites: ValueChange[] = [];
  const unconvertible: number[] = [];
  /** Multiple -> single: what each record holding several leaves in the archive. */
  const parts: Array<{ id: number; value: unknown }> = [];
  const oldTarget = field.type === 'relation' ? field.options?.target : undefined;
  const newTarget = type === 'relation' ? options.target : undefined;
  let retarget: FieldImpact['retarget'] = null;
  if (field.type === 'relation' && type === 'relation' && oldTarget !== newTarget) {
    const held = await countHeld(db, home);
    if (held.live + held.trashed)
      retarget = {
        from: String(oldTarget),
        to: String(newTarget),
        records: held.live + held.trashed,
        ...(change.retarget ? { decided: change.retarget } : {}),
      };
    if (retarget && change.retarget)
      for (const { id, value } of await readHeld(db, home))
        if (change.retarget === 'archive') unconvertible.push(id);
        else rewrites.push({ id, before: value, after: null });
    return { choices, rewrites, unconvertible, parts, retyped: Boolean(retarget), retarget, leftFailing: null };
  }
  // Ids mean something only for the records they name: values never move into or out of a field that references.
  const referencesChanged = JSON.stringify(before.references ?? null) !== JSON.stringify(after.references ?? null);
  if (retyped || choices.length) {
    const mapped = (value: unknown) =>
      typeof value === 'string' && change.choiceMap && value in change.choiceMap ? change.choiceMap[value] : value;
    for (const { id, value } of await readHeld(db, home)) {
      const wanted = Array.isArray(value)
        ? [...new Set(value.map(mapped).filter((v) => v !== null && v !== undefined))]
        : mapped(value);
      if (!retyped) {
        if (JSON.stringify(wanted) !== JSON.stringify(value))
          rewrites.push({ id, before: value, after: Array.isArray(wanted) && !wanted.length ? null : wanted });
        continue;
      }
      if (referencesChanged) {
        unconvertible.push(id);
        continue;
      }
      if (ARRAY_KINDS.has(before.kind) && !ARRAY_KINDS.has(after.kind) && Array.isArray(wanted) && wanted.length > 1) {
        // Several values into a field of one: the first is kept, the others go to the archive.
        const first = convertValue(field.slug, wanted[0], after);
        if (!first.ok) unconvertible.push(id);
        else {
          rewrites.push({ id, before: value, after: first.value });
          parts.push({ id, value: wanted.slice(1) });
        }
        continue;
      }
      const converted = convertValue(field.slug, wanted, after);
      if (!converted.ok) unconvertible.push(id);
      else if (JSON.stringify(converted.value) !== JSON.stringify(value))
        rewrites.push({ id, before: value, after: converted.value });
    }
  }
  const leftFailing = !retyped && rewrites.length ? await recordsLeftFailing(db, home, field, rewrites) : null;
  return { choices, rewrites, unconvertible, parts, retyped, retarget, leftFailing };
}

/** The logic blocks of the type that read or write the field, and what the change does to each. */
async function logicUsing(db: Kysely<DB>, schemaId: number, field: Field, deleting: boolean, changed: boolean) {
  const ref = `field:${field.id}`;
  const blocks = await db
    .selectFrom('logic_blocks')
    .select(['id', 'description'])
    .where('schema_id', '=', schemaId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const ids = blocks.map((block) => block.id);
  const [conditions, actions] = ids.length
    ? await Promise.all([
        db
          .selectFrom('logic_conditions')
          .select(['id', 'logic_block_id', 'source'])
          .where('logic_block_id', 'in', ids)
          .execute(),
        db
          .selectFrom('logic_actions')
          .select(['id', 'logic_block_id', 'target'])
          .where('logic_block_id', 'in', ids)
          .execute(),
      ])
    : [[], []];
  const result: FieldImpact['logic_blocks'] = [];
  for (const block of blocks) {
    const reads = conditions.some((c) => c.logic_block_id === block.id && c.source === ref);
    const mine = actions.filter((a) => a.logic_block_id === block.id);
    const writes = mine.filter((a) => a.target === ref).length;
    if (!reads && !writes) continue;
    if (!deleting) {
      if (changed) result.push({ id: block.id, description: block.description, effect: 'uses the field' });
      continue;
    }
    // A block whose condition is gone would fire always (hiding a required field for good): it goes whole.
    result.push({
      id: block.id,
      description: block.description,
      effect: reads || writes === mine.length ? 'removed' : 'action removed',
    });
  }
  return result;
}

/** Importers of the type that read the field: a column mapped to it, the key, a default or a protected field. */
async function importersUsing(db: Kysely<DB>, schema: SchemaRef, field: Field): Promise<FieldImpact['importers']> {
  const targets = [`custom.${field.slug}`, `${schema.type}.${field.slug}`];
  const importers = await db
    .selectFrom('importers')
    .select(['id', 'name', 'key_target', 'protected_fields', 'defaults'])
    .where('record_type', '=', schema.type)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
  if (!importers.length) return [];
  const columns = await db
    .selectFrom('importer_columns')
    .select(['importer_id', 'header'])
    .where(
      'importer_id',
      'in',
      importers.map((i) => i.id),
    )
    .where('target', 'in', targets)
    .execute();
  const result: FieldImpact['importers'] = [];
  for (const importer of importers) {
    const uses = columns.filter((c) => c.importer_id === importer.id).map((c) => `column "${c.header}"`);
    if (targets.includes(importer.key_target ?? '')) uses.push('the key');
    if (((importer.protected_fields as string[] | null) ?? []).includes(field.slug)) uses.push('a protected field');
    if (field.slug in ((importer.defaults as Record<string, unknown> | null) ?? {})) uses.push('a default');
    if (uses.length) result.push({ id: importer.id, name: importer.name, uses });
  }
  return result;
}

/** Exports of the type still to be written that include the field (every field, or it by name). */
async function exportsUsing(db: Kysely<DB>, schema: SchemaRef, field: Field): Promise<FieldImpact['exports']> {
  const rows = await db
    .selectFrom('exports')
    .select(['id', 'status'])
    .where('resource', '=', schema.resource)
    .where('status', 'in', ['pending', 'processing'])
    .where(sql<boolean>`(columns = '[]'::jsonb or columns ? ${field.slug})`)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ id: row.id, status: row.status }));
}

/** The impact of a change, as the editor shows it and as the write checks it (`blocking`). */
export async function fieldImpact(
  db: Kysely<DB>,
  schema: SchemaRef,
  field: Field,
  change: FieldChange,
): Promise<FieldImpact & { plan: Awaited<ReturnType<typeof valuePlan>> | null }> {
  const home = valueHome(schema, field);
  const deleting = change.next === null;
  const records = await countHeld(db, home);
  const plan = deleting ? null : await valuePlan(db, home, field, change);
  const changed = Boolean(plan && (plan.retyped || plan.choices.length));
  const [logic, importers, exports] = await Promise.all([
    logicUsing(db, schema.id, field, deleting, changed),
    importersUsing(db, schema, field),
    exportsUsing(db, schema, field),
  ]);
  const held = records.live + records.trashed;
  const archived = deleting ? held : plan!.unconvertible.length + plan!.parts.length;
  const converted = plan?.retyped && !plan.retarget ? plan.rewrites.length : 0;
  const blocking = (plan?.choices ?? [])
    .filter((choice) => choice.mapped_to === undefined)
    .map((choice) =>
      choice.records
        ? `${plural(choice.records, 'record holds', 'records hold')} “${choice.label}”, which is no longer a choice: map it to another choice or to empty.`
        : `The logic compares ${field.name} with “${choice.label}”, which is no longer a choice: map it to another choice.`,
    );
  const retarget = plan?.retarget ?? null;
  if (retarget && !retarget.decided)
    blocking.push(
      `${plural(retarget.records, 'record holds', 'records hold')} ${retarget.from} records in ${field.name}, which would point at ${retarget.to} records instead: choose to archive those values or to empty them.`,
    );
  const summary: string[] = [];
  const name = field.name;
  if (deleting)
    summary.push(
      held
        ? `${plural(held, 'record holds', 'records hold')} a value of ${name}${records.trashed ? ` (${records.trashed.toLocaleString('en-US')} in the trash)` : ''}: the values are archived and taken out of the records.`
        : `No record holds a value of ${name}.`,
    );
  if (retarget)
    summary.push(
      retarget.decided === 'archive'
        ? `${plural(retarget.records, 'value')} of ${name} (ids of ${retarget.from} records) ${retarget.records === 1 ? 'is' : 'are'} archived and taken out of the records.`
        : retarget.decided === 'empty'
          ? `${plural(retarget.records, 'record')} holding ${retarget.from} records in ${name} ${retarget.records === 1 ? 'is' : 'are'} emptied (a revision each).`
          : `${plural(retarget.records, 'record holds', 'records hold')} ids of ${retarget.from} records in ${name}: they are never read as ${retarget.to} records.`,
    );
  else if (plan?.retyped) {
    summary.push(
      `${plural(held, 'record holds', 'records hold')} a value of ${name}: ${plural(converted, 'value is', 'values are')} rewritten as the new type${archived ? `, ${plural(archived, 'value cannot', 'values cannot')} become one and ${archived === 1 ? 'is' : 'are'} archived` : ''}.`,
    );
  }
  if (plan?.parts.length)
    summary.push(
      `${plural(plan.parts.length, 'record holds', 'records hold')} several values of ${name}: ${plan.parts.length === 1 ? 'it keeps' : 'each keeps'} the first, and the others are archived (the record's history lists them).`,
    );
  for (const choice of plan?.choices ?? []) {
    if (choice.mapped_to === undefined || !choice.records) continue;
    const to =
      choice.mapped_to === null
        ? 'empty'
        : `“${normaliseChoices((change.next?.options ?? field.options)?.choices).find((c) => c.value === choice.mapped_to)?.label ?? choice.mapped_to}”`;
    summary.push(
      `${plural(choice.records, 'record')} holding “${choice.label}” ${choice.records === 1 ? 'becomes' : 'become'} ${to}.`,
    );
  }
  if (plan?.leftFailing)
    summary.push(
      `${plural(plan.leftFailing.records, 'record')} would then miss ${plan.leftFailing.fields.join(', ')}, which the type's rules require for the new value: ${plan.leftFailing.records === 1 ? 'it keeps' : 'they keep'} the change and must be completed when next edited.`,
    );
  const removedBlocks = logic.filter((block) => block.effect === 'removed').length;
  const lessActions = logic.filter((block) => block.effect === 'action removed').length;
  if (removedBlocks)
    summary.push(
      `${plural(removedBlocks, 'logic block')} that read${removedBlocks === 1 ? 's' : ''} ${name} ${removedBlocks === 1 ? 'is' : 'are'} removed.`,
    );
  if (lessActions)
    summary.push(`${plural(lessActions, 'logic block')} lose${lessActions === 1 ? 's' : ''} the action on ${name}.`);
  const using = logic.filter((block) => block.effect === 'uses the field').length;
  if (using)
    summary.push(
      `${plural(using, 'logic block')} compare${using === 1 ? 's' : ''} ${name}: check ${using === 1 ? 'it' : 'them'} after the change.`,
    );
  if (importers.length && (deleting || changed))
    summary.push(
      `${plural(importers.length, 'importer')} read${importers.length === 1 ? 's' : ''} ${name} (${importers.map((i) => i.name).join(', ')})${deleting ? ': they will need attention before their next import' : ''}.`,
    );
  if (exports.length)
    summary.push(
      `${plural(exports.length, 'export')} still being written include${exports.length === 1 ? 's' : ''} ${name}.`,
    );
  return {
    action: deleting ? 'delete' : 'update',
    field: { id: field.id, slug: field.slug, name: field.name, type: field.type },
    records,
    archived,
    converted,
    retarget,
    kept_first: plan?.parts.length ?? 0,
    left_failing: plan?.leftFailing ?? null,
    choices: plan?.choices ?? [],
    logic_blocks: logic,
    importers,
    exports,
    blocking,
    summary,
    plan,
  };
}

/** The public part of an impact (the API's answer). */
export function presentImpact(impact: Awaited<ReturnType<typeof fieldImpact>>): FieldImpact {
  const { plan: _plan, ...rest } = impact;
  return rest;
}

/**
 * Makes a change to the field's values and logic inside the write's transaction (after the checks of the field's
 * own row); refuses (422) while a removed choice that records hold is not mapped. Returns what it did, for the
 * revision of the schema.
 */
export async function applyFieldChange(
  records: RecordService,
  trx: Kysely<DB>,
  schema: SchemaRef,
  field: Field,
  change: FieldChange,
  user: AuthUser | null,
): Promise<FieldImpact> {
  const impact = await fieldImpact(trx, schema, field, change);
  if (impact.blocking.length)
    throw new ValidationError(
      impact.retarget && !impact.retarget.decided ? { retarget: impact.blocking } : { choice_map: impact.blocking },
    );
  const home = valueHome(schema, field);
  const snapshot: FieldSnapshot = field;
  if (change.next === null) {
    if (!field.column) await records.archiveFieldValues(trx, home, snapshot, 'field deleted', user);
    await removeLogic(trx, schema.id, field);
    return presentImpact(impact);
  }
  const plan = impact.plan!;
  // The parts left out first: the archive keeps what the record held beside the value it keeps.
  if (plan.parts.length)
    await records.archiveFieldParts(
      trx,
      home,
      snapshot,
      'a field of several values became a field of one',
      user,
      plan.parts,
    );
  await records.rewriteFieldValues(trx, home, plan.rewrites, user);
  if (plan.unconvertible.length)
    await records.archiveFieldValues(
      trx,
      home,
      snapshot,
      plan.retarget
        ? `the relation now points at ${plan.retarget.to} records`
        : `not a value of the new type (${change.next.type ?? field.type})`,
      user,
      plan.unconvertible,
    );
  const mapped = Object.entries(change.choiceMap ?? {});
  if (mapped.length) await followChoices(trx, field, mapped);
  return presentImpact(impact);
}

/** Takes out the logic that reads or writes a deleted field: a block whose condition reads it goes whole. */
async function removeLogic(trx: Kysely<DB>, schemaId: number, field: Pick<Field, 'id'>) {
  const ref = `field:${field.id}`;
  const blockIds = (await trx.selectFrom('logic_blocks').select('id').where('schema_id', '=', schemaId).execute()).map(
    (b) => b.id,
  );
  if (!blockIds.length) return;
  const reading = await trx
    .selectFrom('logic_conditions')
    .select('logic_block_id')
    .where('logic_block_id', 'in', blockIds)
    .where('source', '=', ref)
    .execute();
  const writing = await trx
    .selectFrom('logic_actions')
    .select('logic_block_id')
    .where('logic_block_id', 'in', blockIds)
    .where('target', '=', ref)
    .execute();
  const gone = new Set(reading.map((row) => row.logic_block_id));
  if (writing.length) {
    await trx.deleteFrom('logic_actions').where('logic_block_id', 'in', blockIds).where('target', '=', ref).execute();
    // A block left with nothing to do goes too.
    const touched = [...new Set(writing.map((row) => row.logic_block_id))];
    const acting = new Set(
      (
        await trx.selectFrom('logic_actions').select('logic_block_id').where('logic_block_id', 'in', touched).execute()
      ).map((row) => row.logic_block_id),
    );
    for (const id of touched) if (!acting.has(id)) gone.add(id);
  }
  if (gone.size)
    await trx
      .deleteFrom('logic_blocks')
      .where('id', 'in', [...gone])
      .execute();
}

/** Conditions comparing the field with a removed choice, and set-value actions giving it, follow the mapping. */
async function followChoices(trx: Kysely<DB>, field: Pick<Field, 'id'>, mapped: Array<[string, string | null]>) {
  const ref = `field:${field.id}`;
  for (const [from, to] of mapped) {
    if (to === null) continue;
    await trx
      .updateTable('logic_conditions')
      .set({ value: to, updated_at: new Date() })
      .where('source', '=', ref)
      .where('value', '=', from)
      .where('operator', 'in', ['equals', 'not-equals'])
      .execute();
    await trx
      .updateTable('logic_actions')
      .set({ value: JSON.stringify(to), updated_at: new Date() })
      .where('target', '=', ref)
      .where('action', '=', 'set-value')
      .where(sql<boolean>`value = ${JSON.stringify(from)}::jsonb`)
      .execute();
  }
}
