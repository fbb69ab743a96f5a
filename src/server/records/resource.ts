import type { Kysely, Transaction } from 'kysely';
import type { FieldSpec, PivotStorage, ValueKind } from '../../common/field-types.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.generated.js';
import type { ListQuery } from './list-query.js';
import type { RecordService } from './record-service.js';

/** A page read from an index of the person's rows elsewhere (ResourceDefinition.orderedPage). */
export interface OrderedPage {
  total: number;
  estimated: boolean;
  /** The page's ids, in order. */
  ids: number[];
  /** Those of `ids` that are the person's own outside their turf (the note "Outside your turf"), when the page knows. */
  outsideTurf?: number[];
}

/** The kinds of value a field holds (the field-type modules' kinds); each is validated the same way everywhere (fields.ts). */
export type FieldKind = ValueKind;

export type { FieldSpec, PivotStorage };

export interface WriteContext {
  user: AuthUser | null;
  trx: Transaction<DB>;
  /** The data service making the write: a hook's own writes of records go through it, in `trx`; its access policy
   * answers what the person may read (access/policy.ts). */
  records: RecordService;
  /** The row before the write (update, delete, restore). */
  existing?: Record<string, any>;
  importId?: number;
  /** The validated values being written (create, update), `virtual` fields included. */
  values?: Record<string, any>;
}

export interface ResourceDefinition {
  /** URL segment: `/api/{name}`. */
  name: string;
  /** Record type (realtime `type`, revisions) and, unless `permission` says otherwise, the permission entity. */
  type: string;
  permission?: string;
  table: string;
  /** Used in success messages ('Team created successfully.') unless a schema renames it. */
  singular: string;
  fields: Record<string, FieldSpec>;
  /** Keys a client may send back (computed or read-only); ignored on write rather than refused. */
  readOnly?: string[];
  /** Columns never sent to a client. */
  hidden?: string[];
  /**
   * Columns holding a field's sort key (list-query.ts sortExpression's value) kept on the row, by field: a list that
   * orders its matches in one pass reads the column instead of computing the key per match (sites' `name_key`).
   */
  storedSortKeys?: Record<string, string>;
  /** Columns matched by `search` / `q`. */
  search?: string[];
  defaultSort?: { field: string; order: 'asc' | 'desc' };
  softDelete: boolean;
  restorable: boolean;
  /** A column whose value is a permission category (`site:read:union`): rows are filtered by it. */
  categoryColumn?: string;
  /** Rows of a shared table that belong to this resource (`custom_records` of one schema): read filter and written on create. */
  scope?: { column: string; value: string | number };
  /**
   * A person reads only the rows where this column holds their user id (notifications); events go to them alone. Which
   * rows anyone reads is the access policy's (access/policy.ts), never the definition's: this names the column only.
   */
  ownerColumn?: string;
  /**
   * A page of this person's list read from an index of their rows elsewhere, where one holds them in the list's order
   * (a turf of one region: regions/turf-page.ts): its total and its ids in order. Null where it does not apply; the
   * rows are then read by id through `visibleRows`, every rule applied again.
   */
  orderedPage?(
    db: Kysely<DB>,
    user: AuthUser,
    query: ListQuery,
    def: ResourceDefinition,
    records: RecordService,
    /** The person's rule when it is their turf (with their own), as access/policy.ts turfShape reads it; else null. */
    shape: { categories: 'all' | string[]; own: boolean } | null,
  ): Promise<OrderedPage | null>;
  /**
   * Whose each record is (the people and teams its person and team fields name, the people whose work hangs on it) is
   * kept in `record_holders` by the writer (access/holders.ts), and the access policy's "own" and "team" rules read
   * it there: for a type with many records and lists under those rules (sites).
   */
  keepsHolders?: boolean;
  /** Generic routes this resource serves itself (a multipart upload instead of JSON create, ...). */
  ownRoutes?: ReadonlyArray<'list' | 'show' | 'create' | 'update' | 'delete' | 'restore'>;
  /** Columns GET /api/options/{name} sends besides id and name (e.g. slug, color). */
  optionColumns?: string[];
  /** The label of a row in options lists, as SQL over the row's columns (default `name`). */
  optionLabel?: string;
  /**
   * Values the type builds from its fields (a contact's `name` from its first and last names): hidden from a reader
   * whose role hides one of their sources, wherever the field rules apply (access/policy.ts maskOf).
   */
  derivedFields?: Readonly<Record<string, readonly string[]>>;
  /** Loads the administrator-defined fields of this type (stored in `custom`). */
  customFields?: (db: Kysely<DB>) => Promise<Record<string, FieldSpec>>;
  hooks?: {
    /** Adjust validated values before they are written (hash a password, derive a slug). */
    beforeWrite?(
      values: Record<string, any>,
      ctx: WriteContext & { action: 'create' | 'update' },
    ): Promise<Record<string, any>> | Record<string, any>;
    /** Checks before a row is deleted, in the delete's transaction (refuse with an HttpError). */
    beforeRemove?(existing: Record<string, any>, ctx: WriteContext): Promise<void> | void;
    /** Work that belongs in the same transaction after the row is written. */
    afterWrite?(
      record: Record<string, any>,
      ctx: WriteContext & { action: 'create' | 'update' | 'delete' | 'restore' },
    ): Promise<void> | void;
    /**
     * The same work as afterWrite for many created or updated rows at once (the import batch path calls it once per
     * slice instead of afterWrite per row, where per-row queries would dominate a large import). `record` is the id
     * with the values written (over the record as it was, for an update), not a row read back.
     */
    afterWriteMany?(
      writes: Array<{ record: Record<string, any>; ctx: WriteContext & { action: 'create' | 'update' } }>,
      trx: Transaction<DB>,
    ): Promise<void> | void;
    /** Add computed keys to rows on their way out (one query for the whole page). */
    present?(rows: Record<string, any>[], db: Kysely<DB>): Promise<void> | void;
    /**
     * Take out of presented records what this reader may not read (parts naming other records: a visit's head count
     * rows of contractors they may not read). Lists, shows and exports call it with the person reading.
     */
    presentFor?(records: Record<string, any>[], user: AuthUser, service: RecordService): Promise<void> | void;
    /** After commit (and after the realtime event): caches, indexes, files, follow-up events. Errors are logged, not thrown. */
    afterCommit?(
      record: Record<string, any>,
      ctx: { action: 'create' | 'update' | 'delete' | 'restore'; user: AuthUser | null; records: RecordService },
    ): Promise<void> | void;
  };
  /** Extra realtime channels for a record beyond the role channels of those who may read it. */
  channels?(record: Record<string, any>): string[];
}

/**
 * A type's fields, its custom ones included (and the built-in ones with the rules an administrator set on them,
 * schemas/schema-backed.ts): RecordService.fields, and what a loader without the service asks (access/holders.ts).
 */
export async function definitionFields(def: ResourceDefinition, db: Kysely<DB>): Promise<Record<string, FieldSpec>> {
  if (!def.customFields) return def.fields;
  const custom = await def.customFields(db);
  const known = mergedFields.get(def);
  if (known?.custom === custom) return known.fields;
  const fields = { ...def.fields, ...custom };
  mergedFields.set(def, { custom, fields });
  return fields;
}

/**
 * A type's fields as `definitionFields` last merged them, kept while its custom fields are the same (the schema-backed
 * types keep theirs per schema snapshot): read on every compile of a policy and every write (access/holders.ts).
 * Shared: nobody changes them in place.
 */
const mergedFields = new WeakMap<
  ResourceDefinition,
  { custom: Record<string, FieldSpec>; fields: Record<string, FieldSpec> }
>();
