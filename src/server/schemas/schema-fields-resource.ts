import type { Transaction } from 'kysely';
import { z } from 'zod';
import { optionsKeptBy } from '../../common/field-types.js';
import {
  FIELD_CATEGORIES,
  SCHEMA_FIELD_TYPES,
  type SchemaField,
  type SchemaFieldType,
} from '../../common/schema-types.js';
import { slugifyField } from '../../common/slugs.js';
import { refreshHolders } from '../access/holders.js';
import type { DB } from '../db/schema.generated.js';
import { fieldError, HttpError } from '../http/errors.js';
import { keepRollupValues } from '../records/kept-rollups.js';
import type { RecordService } from '../records/record-service.js';
import type { ResourceDefinition } from '../records/resource.js';
import { uniqueIndexExpression } from '../records/unique-values.js';
import { dropAutonumber, syncAutonumber } from './autonumbers.js';
import { builtinDefinition } from './builtin-types.js';
import { refuseBreakingComputed, storedFields, withField } from './computed-dependents.js';
import { customTypeDefinition } from './custom-types.js';
import { applyFieldChange, type FieldImpact } from './field-changes.js';
import { checkFieldOptions, fieldSpecFor, optionsErrorKey, relationTable } from './field-specs.js';
import { sharedValues, valueHome } from './field-values.js';
import { dropCustomFieldIndex, ensureCustomFieldIndex, ensureFormulaIndexesOf, ensureUniqueIndex } from './indexes.js';
import { schemaRelationTargets } from './relation-targets.js';
import { FIELD_SLUG_PATTERN, RESERVED_FIELDS } from './schema-names.js';
import { fieldSnapshot, reviseSchema } from './schema-revisions.js';
import { freshSnapshot, schemaStore } from './schema-store.js';
import { schemaChanged, schemaRow } from './schemas-resource.js';

/** The table a schema's records live in, and (for types created in the app) the schema they are scoped to. */
function tableOf(schema: { type: string; id: number; built_in: boolean }): { table: string; scoped: boolean } {
  const def = builtinDefinition(schema.type);
  return def ? { table: def.table, scoped: false } : { table: 'custom_records', scoped: true };
}

async function reservedSlugs(trx: Transaction<DB>, schema: { id: number; type: string; built_in: boolean }) {
  const { table } = tableOf(schema);
  const columns = await trx
    .selectFrom('information_schema.columns' as any)
    .select('column_name')
    .where('table_name', '=', table)
    .execute();
  const def = builtinDefinition(schema.type);
  return new Set([
    ...RESERVED_FIELDS,
    ...columns.map((c: any) => c.column_name as string),
    ...Object.keys(def?.fields ?? {}),
    ...(def?.readOnly ?? []),
    ...(def?.hidden ?? []),
  ]);
}

/** What a change did to the values, for the schema's revision. */
function valueEffects(slug: string, impact: FieldImpact): Record<string, [unknown, unknown]> {
  const effects: Record<string, [unknown, unknown]> = {};
  if (impact.archived)
    effects[`values:${slug}`] = [impact.records.live + impact.records.trashed, `${impact.archived} archived`];
  if (impact.converted)
    effects[`values:${slug}`] = [
      impact.records.live + impact.records.trashed,
      `${impact.converted} converted${impact.archived ? `, ${impact.archived} archived` : ''}`,
    ];
  for (const choice of impact.choices)
    if (choice.mapped_to !== undefined) effects[`choice:${slug}:${choice.value}`] = [choice.records, choice.mapped_to];
  for (const block of impact.logic_blocks)
    if (block.effect !== 'uses the field')
      effects[`logic:${block.id}`] = [block.description ?? `block ${block.id}`, block.effect];
  return effects;
}

/** A field is made unique only once no two live records hold one value (422 on `options.unique` naming them). */
async function refuseSharedValues(trx: Transaction<DB>, schema: { id: number; type: string }, field: SchemaField) {
  const home = valueHome(schema, field);
  const spec = fieldSpecFor(field, await schemaRelationTargets(trx), undefined, home.scoped ? schema.id : null);
  const key = uniqueIndexExpression(field.slug, spec);
  if (!key) return;
  const shared = await sharedValues(trx, home, key);
  if (shared.length)
    throw fieldError(
      'options.unique',
      `${field.name} cannot be unique yet: ${shared.map((s) => `“${s.value}” is held by ${s.records} records`).join(', ')}${shared.length === 5 ? ', and more' : ''}. Make them different first.`,
    );
}

/**
 * Person and team fields of a type that keeps its holders (access/holders.ts) changed or deleted in a transaction:
 * once it has committed, the type's fields are read anew and every record's holders worked out again.
 */
const holdersMoved = new Set<number>();

/** The resource of a record type (built in, or made in the app). */
export const typeDefinition = (schema: { id: number; type: string; resource: string; name_singular: string }) =>
  builtinDefinition(schema.type) ?? customTypeDefinition(schema);

const kindOf = async (trx: Transaction<DB>, field: Record<string, any>) =>
  fieldSpecFor(field as SchemaField, await schemaRelationTargets(trx)).kind;

/**
 * The fields of a record type. Internal (built-in, `column`) fields come with the type: their slug, type and
 * category are fixed and they cannot be deleted; their name, position, options and required flag can change.
 * Custom and importer fields are added here; their values live in the record's `custom` JSON, indexed for filters.
 * A change that touches the records' values is made with them, in the same transaction (field-changes.ts): deleting
 * archives the values and removes the logic that uses the field, a new type converts or archives them, a removed
 * choice is mapped (`choice_map`); every change is a revision of the schema too.
 */
export const schemaFieldsResource: ResourceDefinition = {
  name: 'schema-fields',
  type: 'schema-field',
  table: 'schema_fields',
  singular: 'Field',
  fields: {
    schema_id: { kind: 'integer', required: true, min: 1, label: 'schema', references: { table: 'schemas' } },
    name: { kind: 'text', required: true, max: 100 },
    slug: {
      kind: 'text',
      max: 60,
      pattern: FIELD_SLUG_PATTERN,
      patternMessage: 'The slug may only hold lower-case letters, digits and underscores, starting with a letter.',
    },
    type: { kind: 'enum', required: true, options: SCHEMA_FIELD_TYPES },
    category: { kind: 'enum', options: FIELD_CATEGORIES },
    required: { kind: 'boolean' },
    options: { kind: 'json', max: 50_000, sortable: false, filterable: false },
    position: { kind: 'integer', min: 0, max: 100_000 },
    // With a change that removes choices records hold: each removed choice -> the choice they get, or null (empty).
    choice_map: {
      kind: 'json',
      storage: 'virtual',
      shape: z.record(z.string().max(60), z.string().max(60).nullable()),
      sortable: false,
      filterable: false,
      label: 'choice map',
    },
    // With a relation pointed at another target while records hold values: archive them or empty them.
    retarget: {
      kind: 'enum',
      storage: 'virtual',
      options: ['archive', 'empty'],
      sortable: false,
      filterable: false,
      label: 'retarget',
    },
  },
  readOnly: ['internal', 'column'],
  search: ['name', 'slug'],
  defaultSort: { field: 'position', order: 'asc' },
  softDelete: false,
  restorable: false,
  hooks: {
    async beforeWrite(values, { trx, records, action, existing, user }) {
      const prepared = { ...values };
      if (action === 'update') {
        if ('schema_id' in prepared && prepared.schema_id !== existing!.schema_id)
          throw fieldError('schema_id', 'A field cannot move to another record type.');
        if ('slug' in prepared && prepared.slug !== existing!.slug)
          throw fieldError('slug', 'The slug of a field cannot change (its values are stored under it).');
        if (existing!.column) {
          if ('type' in prepared && prepared.type !== existing!.type)
            throw fieldError('type', 'The type of a built-in field cannot change.');
          if ('category' in prepared && prepared.category !== existing!.category)
            throw fieldError('category', 'The category of a built-in field cannot change.');
        } else if (prepared.category === 'internal') {
          throw fieldError('category', 'Only built-in fields are internal: choose custom or importer.');
        }
        delete prepared.schema_id;
        delete prepared.slug;
      }
      const schemaId = prepared.schema_id ?? existing!.schema_id;
      const schema = await schemaRow(trx, schemaId);
      if (!schema) throw fieldError('schema_id', 'The selected schema does not exist.');
      const type = (prepared.type ?? existing?.type) as SchemaFieldType;
      const targets = await schemaRelationTargets(trx);
      if (action === 'create' || 'options' in prepared || 'type' in prepared) {
        // A new type without new options keeps those of the old options it takes.
        const options = 'options' in prepared ? prepared.options : optionsKeptBy(type, existing?.options);
        const slug = existing?.slug ?? prepared.slug ?? slugifyField(prepared.name ?? '');
        const self = {
          slug,
          name: prepared.name ?? existing?.name ?? slug,
          type,
          options,
          required: false,
          column: false,
        };
        const checked = checkFieldOptions(type, options, targets, {
          self: slug,
          fields: withField(await storedFields(trx, schemaId), slug, self),
          // The types as this transaction sees them (a type made in it too): read through it, not cached.
          types: (await schemaStore(trx).snapshot(trx)).typeScope(schema.type),
        });
        if ('error' in checked) throw fieldError(optionsErrorKey(checked), checked.error);
        prepared.options = checked.options;
        if (action === 'update' && checked.options.unique && !existing!.options?.unique)
          await refuseSharedValues(trx, schema, { ...existing!, ...prepared } as SchemaField);
      }
      if (action === 'create') {
        if (prepared.category === 'internal')
          throw fieldError('category', 'Internal fields come with the record type: choose custom or importer.');
        prepared.category ??= 'custom';
        prepared.slug ||= slugifyField(prepared.name);
        if (!FIELD_SLUG_PATTERN.test(prepared.slug))
          throw fieldError(
            'slug',
            'The slug may only hold lower-case letters, digits and underscores, starting with a letter.',
          );
        const [taken, reserved] = await Promise.all([
          trx
            .selectFrom('schema_fields')
            .select('id')
            .where('schema_id', '=', schemaId)
            .where('slug', '=', prepared.slug)
            .executeTakeFirst(),
          reservedSlugs(trx, schema),
        ]);
        if (taken || reserved.has(prepared.slug))
          throw fieldError(
            'slug',
            `The slug "${prepared.slug}" is already used by ${schema.name_singular}: choose another.`,
          );
        prepared.column = false;
        prepared.required ??= false;
        if (prepared.position === undefined) {
          const last = await trx
            .selectFrom('schema_fields')
            .select((eb) => eb.fn.max('position').as('max'))
            .where('schema_id', '=', schemaId)
            .executeTakeFirst();
          prepared.position = Number(last?.max ?? -1) + 1;
        }
        // A new field starts empty: values an earlier field of this slug left in the records go to the archive.
        const leftover = {
          id: 0,
          slug: prepared.slug,
          name: prepared.name,
          type,
          options: {},
          required: false,
          category: 'custom' as const,
        };
        const archived = await records.archiveFieldValues(
          trx,
          valueHome(schema, { slug: prepared.slug, column: false }),
          leftover,
          'left by an earlier field of the same slug',
          user,
        );
        await reviseSchema(records, trx, schemaId, user, {
          [`field:${prepared.slug}`]: [null, fieldSnapshot(prepared)],
          ...(archived ? { [`values:${prepared.slug}`]: [archived, '0 (archived)'] } : {}),
        });
      }
      if (prepared.required === null) prepared.required = false;
      if (action === 'update') {
        const after = { ...existing!, ...prepared };
        // A formula that names this field must still work with it renamed or of another type.
        if ('name' in prepared || 'type' in prepared || 'options' in prepared)
          await refuseBreakingComputed(trx, schemaId, existing as SchemaField, after as SchemaField, targets);
        if (existing!.column && (await kindOf(trx, after)) !== (await kindOf(trx, existing!)))
          throw fieldError('options', 'The kind of value a built-in field holds cannot change.');
        if (existing!.column && after.options?.target !== existing!.options?.target)
          throw fieldError('options.target', 'What a built-in relation points at cannot change.');
        const touchesValues = 'type' in prepared || 'options' in prepared;
        // Numbering stops before the values are converted (its trigger would keep each number as it was).
        if (existing!.type === 'autonumber' && type !== 'autonumber')
          await dropAutonumber(trx, schema, existing as SchemaField);
        // Values about to be rewritten in another kind must not meet the old kind's index (`(... ->> 'x')::numeric`
        // refuses a list): it goes first, in this transaction; the new kind's is made after the commit.
        if (touchesValues && !existing!.column && (await kindOf(trx, after)) !== (await kindOf(trx, existing!)))
          await dropCustomFieldIndex(trx, schema, existing as SchemaField);
        const impact = touchesValues
          ? await applyFieldChange(
              records,
              trx,
              schema,
              existing as SchemaField,
              {
                next: { type, options: prepared.options ?? existing!.options },
                choiceMap: prepared.choice_map ?? undefined,
                retarget: prepared.retarget ?? undefined,
              },
              user,
            )
          : null;
        const [before, next] = [fieldSnapshot(existing), fieldSnapshot(after)];
        if (JSON.stringify(before) !== JSON.stringify(next))
          await reviseSchema(records, trx, schemaId, user, {
            [`field:${existing!.slug}`]: [before, next],
            ...(impact ? valueEffects(existing!.slug, impact) : {}),
          });
      }
      delete prepared.choice_map;
      delete prepared.retarget;
      return prepared;
    },
    async beforeRemove(existing, { trx, records, user }) {
      if (existing.column)
        throw new HttpError(
          422,
          `"${existing.name}" is a built-in field: it cannot be deleted (hide it with logic instead).`,
        );
      const schema = await schemaRow(trx, existing.schema_id);
      if (!schema) return;
      await refuseBreakingComputed(
        trx,
        schema.id,
        existing as SchemaField,
        null,
        await schemaRelationTargets(trx),
        'id',
      );
      await dropAutonumber(trx, schema, existing as SchemaField);
      const impact = await applyFieldChange(records, trx, schema, existing as SchemaField, { next: null }, user);
      await reviseSchema(records, trx, schema.id, user, {
        [`field:${existing.slug}`]: [fieldSnapshot(existing), null],
        ...valueEffects(existing.slug, impact),
      });
    },
    async afterWrite(record, { trx, action, existing, records }) {
      // A custom field whose kind of value changed gets the index of its new kind (the name stays: drop here, made
      // after the commit). Not in this transaction: the rows it rewrote or archived still have their old versions,
      // which an index built now would also read, and `'n/a'::numeric` fails.
      if (record.column) return;
      const schema = await schemaRow(trx, record.schema_id);
      if (schema && action !== 'create' && typeDefinition(schema).keepsHolders) {
        const targets = await schemaRelationTargets(trx);
        /** The people or the teams the field names ('users', 'teams'), or null. */
        const names = (field: Record<string, any>) => {
          const table = fieldSpecFor(field as SchemaField, targets).references?.table;
          return table === 'users' || table === 'teams' ? table : null;
        };
        // Renamed or moved, a field names the same people: only one that starts or stops naming people or teams,
        // changes type or goes moves the holders.
        const was = existing ?? record;
        const before = names(was);
        const after = action === 'delete' ? null : names(record);
        if ((before || after) && (after !== before || record.type !== was.type)) holdersMoved.add(record.id);
      }
      if (schema && action !== 'delete' && record.type === 'rollup' && rollupChanged(record, existing))
        await keepEveryValue(records, trx, schema, record.slug);
      if (schema && (record.type === 'autonumber' || existing?.type === 'autonumber'))
        await syncAutonumber(trx, schema, record as SchemaField);
      if (action !== 'update') return;
      if (schema && (await kindOf(trx, record)) !== (await kindOf(trx, existing!)))
        await dropCustomFieldIndex(trx, schema, record as SchemaField);
    },
    present(records) {
      for (const record of records) record.internal = record.category === 'internal';
    },
    async afterCommit(record, { action, records }) {
      await schemaChanged(records, record.schema_id);
      const schema = await schemaRow(records.db, record.schema_id);
      if (!schema) return;
      if (holdersMoved.delete(record.id)) {
        const def = typeDefinition(schema);
        await records.db.transaction().execute((trx) => refreshHolders(records.access, trx, def, 'all'));
      }
      // Values may have been rewritten or archived: open lists of the type refresh (one event, as after an import).
      if (action !== 'create') records.announce(typeDefinition(schema), 'updated', { schema_field_id: record.id });
      if (record.column) {
        if (action !== 'delete') await ensureUniqueIndex(records.db, schema, record as SchemaField);
        return;
      }
      if (action === 'delete') await dropCustomFieldIndex(records.db, schema, record as SchemaField);
      else await ensureCustomFieldIndex(records.db, schema, record as SchemaField);
      // Formulas reading this field (or this formula, through another) may now compile to other SQL.
      await ensureFormulaIndexesOf(records.db, schema);
    },
  },
};

/** A rollup made, or made from another type, or with other options: every record's value is worked out again. */
const rollupChanged = (record: { options?: unknown }, existing: { type?: unknown; options?: unknown } | undefined) =>
  existing?.type !== 'rollup' || JSON.stringify(existing.options) !== JSON.stringify(record.options);

/**
 * The value of the kept rollup `slug` for every record of its type, in the transaction that saved the field (one
 * statement: records/kept-rollups.ts), from the schemas as that transaction has them.
 */
async function keepEveryValue(records: RecordService, trx: Transaction<DB>, schema: { type: string }, slug: string) {
  const snapshot = await freshSnapshot(trx);
  const owner = relationTable(snapshot.targets[schema.type]);
  const def = owner ? records.targetOf(owner) : undefined;
  const spec = snapshot.customSpecs(schema.type)[slug];
  if (def && spec?.kept) await keepRollupValues(records, trx, def, slug, spec, 'all');
}
