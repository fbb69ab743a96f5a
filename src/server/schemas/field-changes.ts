import { type Kysely, sql } from 'kysely';
import {
  normaliseChoices,
  type SchemaField,
  type SchemaFieldOptions,
  type SchemaFieldType,
} from '../../common/schema-types.js';
import type { AuthUser } from '../auth/auth-user.js';
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
  /** Choices taken away that records hold, with how many, and where the change maps them. */
  choices: Array<{ value: string; label: string; records: number; mapped_to?: string | null }>;
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

/** The change's effect on the values: what the new field makes of each value held. */
async function valuePlan(db: Kysely<any>, home: ValueHome, field: Field, change: FieldChange) {
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
  const choices = removed
    .filter((choice) => (counts.get(choice.value) ?? 0) > 0)
    .map((choice) => ({
      value: choice.value,
      label: choice.label,
      records: counts.get(choice.value)!,
      mapped_to: change.choiceMap?.[choice.value],
    }));
  const retyped = before.kind !== after.kind || (type !== field.type && !field.column);
  const rewrites: ValueChange[] = [];
  const unconvertible: number[] = [];
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
      const converted = convertValue(field.slug, wanted, after);
      if (!converted.ok) unconvertible.push(id);
      else if (JSON.stringify(converted.value) !== JSON.stringify(value))
        rewrites.push({ id, before: value, after: converted.value });
    }
  }
  return { choices, rewrites, unconvertible, retyped };
}

/** The logic blocks of the type that read or write the field, and what the change does to each. */
async function logicUsing(db: Kysely<any>, schemaId: number, field: Field, deleting: boolean, changed: boolean) {
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
async function importersUsing(db: Kysely<any>, schema: SchemaRef, field: Field): Promise<FieldImpact['importers']> {
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
async function exportsUsing(db: Kysely<any>, schema: SchemaRef, field: Field): Promise<FieldImpact['exports']> {
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
  db: Kysely<any>,
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
  const archived = deleting ? held : plan!.unconvertible.length;
  const converted = plan?.retyped ? plan.rewrites.length : 0;
  const blocking = (plan?.choices ?? [])
    .filter((choice) => choice.mapped_to === undefined)
    .map(
      (choice) =>
        `${plural(choice.records, 'record holds', 'records hold')} “${choice.label}”, which is no longer a choice: map it to another choice or to empty.`,
    );
  const summary: string[] = [];
  const name = field.name;
  if (deleting)
    summary.push(
      held
        ? `${plural(held, 'record holds', 'records hold')} a value of ${name}${records.trashed ? ` (${records.trashed.toLocaleString('en-US')} in the trash)` : ''}: the values are archived and taken out of the records.`
        : `No record holds a value of ${name}.`,
    );
  if (plan?.retyped) {
    summary.push(
      `${plural(held, 'record holds', 'records hold')} a value of ${name}: ${plural(converted, 'value is', 'values are')} rewritten as the new type${archived ? `, ${plural(archived, 'value cannot', 'values cannot')} become one and ${archived === 1 ? 'is' : 'are'} archived` : ''}.`,
    );
  }
  for (const choice of plan?.choices ?? []) {
    if (choice.mapped_to === undefined) continue;
    const to =
      choice.mapped_to === null
        ? 'empty'
        : `“${normaliseChoices((change.next?.options ?? field.options)?.choices).find((c) => c.value === choice.mapped_to)?.label ?? choice.mapped_to}”`;
    summary.push(
      `${plural(choice.records, 'record')} holding “${choice.label}” ${choice.records === 1 ? 'becomes' : 'become'} ${to}.`,
    );
  }
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
  trx: Kysely<any>,
  schema: SchemaRef,
  field: Field,
  change: FieldChange,
  user: AuthUser | null,
): Promise<FieldImpact> {
  const impact = await fieldImpact(trx, schema, field, change);
  if (impact.blocking.length) throw new ValidationError({ choice_map: impact.blocking });
  const home = valueHome(schema, field);
  const snapshot: FieldSnapshot = field;
  if (change.next === null) {
    if (!field.column) await records.archiveFieldValues(trx, home, snapshot, 'field deleted', user);
    await removeLogic(trx, schema.id, field);
    return presentImpact(impact);
  }
  const plan = impact.plan!;
  await records.rewriteFieldValues(trx, home, plan.rewrites, user);
  if (plan.unconvertible.length)
    await records.archiveFieldValues(
      trx,
      home,
      snapshot,
      `not a value of the new type (${change.next.type ?? field.type})`,
      user,
      plan.unconvertible,
    );
  const mapped = Object.entries(change.choiceMap ?? {});
  if (mapped.length) await followChoices(trx, field, mapped);
  return presentImpact(impact);
}

/** Takes out the logic that reads or writes a deleted field: a block whose condition reads it goes whole. */
async function removeLogic(trx: Kysely<any>, schemaId: number, field: Pick<Field, 'id'>) {
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
async function followChoices(trx: Kysely<any>, field: Pick<Field, 'id'>, mapped: Array<[string, string | null]>) {
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
