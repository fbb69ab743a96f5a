import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { SiblingField } from '../../common/field-types/define.js';
import { evaluateLogic } from '../../common/form-logic/index.js';
import {
  type LogicBlock,
  type RecordSchema,
  type RelationTarget,
  type RelationTargetInfo,
  relationTargets,
  type SchemaField,
} from '../../common/schema-types.js';
import type { Database } from '../db/database.js';
import type { DB } from '../db/schema.generated.js';
import { type FormLogicOutcome, NO_FORM_LOGIC } from '../records/form-logic-outcome.js';
import type { KeptRollupRef } from '../records/kept-rollups.js';
import type { FieldSpec } from '../records/resource.js';
import { fieldSpecFor, relationTable, siblingFields, type TypeScope, withComputedValues } from './field-specs.js';

export interface SchemaSnapshot {
  list: RecordSchema[];
  byType: Map<string, RecordSchema>;
  byResource: Map<string, RecordSchema>;
  /** What a relation field may point at: every record type, those made in the app included (relationTargets). */
  targets: Record<RelationTarget, RelationTargetInfo>;
  /** FieldSpecs of the custom (non-column) fields of a type, made once per snapshot. */
  customSpecs(type: string): Record<string, FieldSpec>;
  /** A type among the others: what a rollup of it reads (field-specs.ts TypeScope). */
  typeScope(type: string): TypeScope;
  /**
   * The validation an administrator set on the built-in fields of a type (required, pattern, unique, default,
   * read-only, limits), by slug: what the stored schema says over what the schema file gives (schema-backed.ts).
   */
  columnRules(type: string): Record<string, Partial<FieldSpec>>;
  /** The rollups whose values records keep (records/kept-rollups.ts): the rows of their type and their slug. */
  keptRollups(): KeptRollupRef[];
}

/** Reads every schema with its fields and logic in five queries. */
export async function loadSchemas(db: Kysely<DB>, ids?: number[]): Promise<RecordSchema[]> {
  let schemaQuery = db.selectFrom('schemas').selectAll().orderBy('position').orderBy('id');
  if (ids) schemaQuery = schemaQuery.where('id', 'in', ids.length ? ids : [-1]);
  const schemas = await schemaQuery.execute();
  const schemaIds = schemas.map((s) => s.id);
  if (!schemaIds.length) return [];
  const [fields, blocks] = await Promise.all([
    db
      .selectFrom('schema_fields')
      .selectAll()
      .where('schema_id', 'in', schemaIds)
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('logic_blocks')
      .selectAll()
      .where('schema_id', 'in', schemaIds)
      .orderBy('position')
      .orderBy('id')
      .execute(),
  ]);
  const blockIds = blocks.map((b) => b.id);
  const [conditions, actions] = blockIds.length
    ? await Promise.all([
        db.selectFrom('logic_conditions').selectAll().where('logic_block_id', 'in', blockIds).orderBy('id').execute(),
        db.selectFrom('logic_actions').selectAll().where('logic_block_id', 'in', blockIds).orderBy('id').execute(),
      ])
    : [[], []];
  const group = <T extends Record<string, any>>(rows: T[], key: string) => {
    const map = new Map<number, T[]>();
    for (const row of rows) map.set(row[key], [...(map.get(row[key]) ?? []), row]);
    return map;
  };
  const fieldsBySchema = group(fields, 'schema_id');
  const blocksBySchema = group(blocks, 'schema_id');
  const conditionsByBlock = group(conditions, 'logic_block_id');
  const actionsByBlock = group(actions, 'logic_block_id');
  return schemas.map((schema) => {
    const schemaFields: SchemaField[] = (fieldsBySchema.get(schema.id) ?? []).map(presentField);
    return {
      ...(schema as unknown as RecordSchema),
      custom: schemaFields.some((field) => !field.internal),
      fields: schemaFields,
      actions: (blocksBySchema.get(schema.id) ?? []).map((block) =>
        presentBlock(block, conditionsByBlock.get(block.id) ?? [], actionsByBlock.get(block.id) ?? []),
      ),
    };
  });
}

export function presentField(row: Record<string, any>): SchemaField {
  return { ...(row as SchemaField), internal: row.category === 'internal', options: row.options ?? {} };
}

export function presentBlock(
  block: Record<string, any>,
  conditions: Record<string, any>[],
  actions: Record<string, any>[],
): LogicBlock {
  return {
    ...(block as LogicBlock),
    conditions: conditions as LogicBlock['conditions'],
    actions: actions as LogicBlock['actions'],
  };
}

/** The schemas as `db` (a transaction that changed them) reads them now, not cached. */
export const freshSnapshot = (db: Kysely<DB>) => loadSchemas(db).then(snapshotOf);

function snapshotOf(list: RecordSchema[]): SchemaSnapshot {
  const specs = new Map<string, Record<string, FieldSpec>>();
  const rules = new Map<string, Record<string, Partial<FieldSpec>>>();
  const byType = new Map(list.map((schema) => [schema.type, schema]));
  const targets = relationTargets(list);
  const typeFields = new Map<string, SiblingField[]>();
  const typeScope = (type: string): TypeScope => ({
    type,
    typeFields(other) {
      const schema = byType.get(other);
      if (!schema) return undefined;
      // Cast on that type's own rows, as its fields' indexes are (a rollup's join then reads its relation's index).
      if (!typeFields.has(other))
        typeFields.set(other, siblingFields(schema.fields, targets, schema.built_in === false ? schema.id : null));
      return typeFields.get(other);
    },
    typeRows: (other) => relationTable(targets[other]),
  });
  let kept: KeptRollupRef[] | null = null;
  return {
    list,
    byType,
    typeScope,
    keptRollups() {
      kept ??= list.flatMap((schema) => {
        const owner = relationTable(targets[schema.type]);
        return owner
          ? schema.fields
              .filter((field) => field.type === 'rollup' && field.options?.kept === true)
              .map((field) => ({ owner, slug: field.slug }))
          : [];
      });
      return kept;
    },
    byResource: new Map(list.map((schema) => [schema.resource, schema])),
    targets,
    customSpecs(type) {
      if (!specs.has(type)) {
        const schema = byType.get(type);
        const all = schema?.fields ?? [];
        const fields = all.filter((field) => !field.column);
        // Records of a type made in the app are its schema's rows of the shared custom_records.
        const schemaId = schema?.built_in === false ? schema.id : null;
        const custom = Object.fromEntries(
          fields.map((field) => [field.slug, fieldSpecFor(field, targets, type, schemaId)]),
        );
        specs.set(type, withComputedValues(custom, all, targets, typeScope(type), schemaId));
      }
      return specs.get(type)!;
    },
    columnRules(type) {
      if (!rules.has(type)) {
        const fields = byType.get(type)?.fields.filter((field) => field.column) ?? [];
        rules.set(
          type,
          Object.fromEntries(
            fields.map((field) => {
              const spec = fieldSpecFor(field, targets);
              const picked = Object.entries(spec).filter(([key]) => RULE_KEYS.has(key));
              return [field.slug, Object.fromEntries(picked) as Partial<FieldSpec>];
            }),
          ),
        );
      }
      return rules.get(type)!;
    },
  };
}

/** The channel on which server processes tell each other that record types changed (payload: the sender's id). */
const NOTIFY_CHANNEL = 'organizing_map_schemas';

/** What of a built-in field's stored schema its validation takes (columnRules). */
const RULE_KEYS = new Set([
  'required',
  'pattern',
  'patternMessage',
  'unique',
  'default',
  'readOnly',
  'min',
  'max',
  'step',
]);

/**
 * The schemas of one database, cached in memory: every resource needs its custom fields, its name and its logic
 * on every request. Any write to a schema, field or logic row calls `changed()`, which clears this process's cache
 * and, once `shareWith` has joined the processes' channel, every other server process's.
 */
export class SchemaStore {
  private current: Promise<SchemaSnapshot> | null = null;
  private ready: SchemaSnapshot | null = null;
  private generation = 0;
  private readonly listeners: Array<() => void> = [];
  private tellOthers: (() => Promise<void>) | null = null;

  constructor(private readonly db: Kysely<DB>) {}

  /** `db`: a transaction the caller is in. Reads through it are not cached (they may see its own uncommitted writes). */
  snapshot(db?: Kysely<DB>): Promise<SchemaSnapshot> {
    // Inside a transaction only a finished snapshot will do: a load still waiting for the connection would wait
    // for this very transaction to end (PGlite has one connection), so read through the transaction instead.
    if (db?.isTransaction) return this.ready ? Promise.resolve(this.ready) : loadSchemas(db).then(snapshotOf);
    if (this.current) return this.current;
    const generation = this.generation;
    const loading = loadSchemas(this.db).then(snapshotOf);
    this.current = loading;
    loading.then(
      (snapshot) => {
        // A change that landed while this load ran makes it stale: do not keep it.
        if (this.current !== loading) return;
        if (generation !== this.generation) this.current = null;
        else this.ready = snapshot;
      },
      () => {
        if (this.current === loading) this.current = null;
      },
    );
    return loading;
  }

  /** Forget the cache here (after a change seen from another process). */
  invalidate() {
    this.generation++;
    this.current = null;
    this.ready = null;
    for (const listener of this.listeners) listener();
  }

  /** A schema, field or logic row was written and committed: forget the cache here and elsewhere. */
  async changed() {
    this.invalidate();
    await this.tellOthers?.().catch(() => {});
  }

  /**
   * Joins the server processes sharing `database` (app.ts, once): a change here clears their caches and the other way
   * round, by the database's LISTEN/NOTIFY (`Database.listen` / `notify`), the app's one way between processes (the
   * realtime relay rides it too). A channel of its own rather than the event bus, which is in-process, or the realtime
   * relay, which carries browsers' events to sockets: this notice is for the server's own cache, before its next read.
   * Returns what stops its watch for notices missed while the connection was lost (on close).
   */
  async shareWith(database: Pick<Database, 'listen' | 'notify' | 'onNotificationsMissed'>): Promise<() => void> {
    // Tells this process's own notices from the others' (pids repeat across containers).
    const instance = randomUUID();
    this.tellOthers = () => database.notify(NOTIFY_CHANNEL, instance);
    await database.listen(NOTIFY_CHANNEL, (payload) => {
      if (payload !== instance) this.invalidate();
    });
    // A change announced while this process's LISTEN connection was lost (a database restart) was not heard.
    return database.onNotificationsMissed(() => this.invalidate());
  }

  onInvalidate(listener: () => void) {
    this.listeners.push(listener);
  }

  /** The singular name of a record type, from its schema ('Job Site'), for messages. `db` as for snapshot. */
  async nameOf(def: { type: string; singular: string }, db?: Kysely<DB>): Promise<string> {
    return (await this.snapshot(db)).byType.get(def.type)?.name_singular ?? def.singular;
  }

  async customSpecs(type: string, db?: Kysely<DB>) {
    return (await this.snapshot(db)).customSpecs(type);
  }

  /**
   * The form logic of `type` over the values of a write, every block considered as the form would have run it: the
   * values its set-value actions give and the fields (slugs) it hides, by the values after those actions.
   */
  async logic(
    type: string,
    values: Record<string, any>,
    db?: Kysely<DB>,
    warn?: (message: string) => void,
  ): Promise<FormLogicOutcome> {
    const schema = (await this.snapshot(db)).byType.get(type);
    if (!schema?.actions.length) return NO_FORM_LOGIC;
    try {
      const result = evaluateLogic(schema.actions, values ?? {}, {
        trigger: 'all',
        fields: schema.fields,
        logger: warn ?? (() => {}),
      });
      const hidden = new Set(
        Object.entries(result.visibility)
          .filter(([, state]) => state === 'hidden')
          .map(([slug]) => slug),
      );
      return { setValues: result.setValues, hidden, cleared: new Set(Object.keys(result.cleared)) };
    } catch (error) {
      warn?.(`The logic of ${type} could not be evaluated: ${(error as Error).message}`);
      return NO_FORM_LOGIC;
    }
  }
}

/**
 * A transaction's view of its database's store: the store's finished snapshot, else the schemas read through the
 * transaction (SchemaStore.snapshot). Without it each write in a transaction read every schema, field and logic row
 * again (five statements and hundreds of rows per write: a logged conversation's four writes paid it four times).
 */
class TransactionSchemas extends SchemaStore {
  constructor(
    private readonly root: SchemaStore,
    private readonly trx: Kysely<DB>,
  ) {
    super(trx);
  }

  override snapshot(db?: Kysely<DB>): Promise<SchemaSnapshot> {
    return this.root.snapshot(db ?? this.trx);
  }
}

/** One store a database: its Kysely instance, the copies made from it and its transactions share its adapter. */
const stores = new WeakMap<object, SchemaStore>();

/**
 * The store of a database. A transaction gets its database's store's snapshot (or reads through the transaction while
 * there is none yet); a transaction whose database has no store yet gets an uncached one.
 */
export function schemaStore(db: Kysely<DB>): SchemaStore {
  const key = db.getExecutor().adapter;
  const store = stores.get(key);
  if (db.isTransaction) return store ? new TransactionSchemas(store, db) : new SchemaStore(db);
  if (store) return store;
  const created = new SchemaStore(db);
  stores.set(key, created);
  return created;
}
