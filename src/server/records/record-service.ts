import { randomUUID } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import { keptFromOthers, type RuleAction } from '../../common/access-rules.js';
import type { SqlFragment } from '../../common/field-types/define.js';
import { type Action, canOnEntity } from '../../common/permissions.js';
import { heldPage } from '../access/held-page.js';
import { keepHolders } from '../access/holders.js';
import { type AccessPolicy, masked } from '../access/policy.js';
import type { SiteRegions } from '../access/turf.js';
import type { AuthUser } from '../auth/auth-user.js';
import { dynamicTables, type StoredRecord } from '../db/dynamic-tables.js';
import type { DB } from '../db/schema.generated.js';
import type { AppEvents, RecordAction, RecordEvent, WriteCause } from '../events/app-events.js';
import { compileFilter, type FilterScope } from '../filters/compile-filter.js';
import { fromListFilters, parseFilterTree } from '../filters/filter-tree.js';
import { conflict, forbidden, HttpError, notFound, ValidationError } from '../http/errors.js';
import { withSavedView } from '../views/saved-view.js';
import {
  type BatchOptions,
  type BatchOutcome,
  type BatchRow,
  type BulkRow,
  bulkWrite,
  importBatch,
} from './batch-writer.js';
import { withChoiceKeys } from './choice-keys.js';
import { addComputedValues } from './computed-values.js';
import {
  archiveParts,
  archiveValues,
  type FieldSnapshot,
  rewriteValues,
  type ValueChange,
  type ValueHome,
} from './field-value-writes.js';
import { emptyHidden, type FormLogicOutcome, NO_FORM_LOGIC, withSetValues } from './form-logic-outcome.js';
import { type Claim, claim, type FirstAnswer, firstAnswer, keep, type RequestKey } from './idempotency.js';
import type { KeptNames } from './kept-names.js';
import { type KeptRollupRef, keepRollups } from './kept-rollups.js';
import type { KeptTotals } from './kept-totals.js';
import { groupRows, groupsWithTotal, summableFields } from './list-groups.js';
import {
  choiceRanking,
  cursorStart,
  escapeLike,
  fieldExpression,
  ONE_PASS_MATCHES,
  pageCursor,
  parseListQuery,
  readPage,
  resolveField,
  searchCondition,
  sortExpression,
  sortKeyPinned,
  sortRun,
  TURF_ONE_PASS_MATCHES,
} from './list-query.js';
import { nameLinks } from './representation.js';
import {
  definitionFields,
  type FieldSpec,
  type OrderedPage,
  type ResourceDefinition,
  type WriteContext,
} from './resource.js';
import { changesOf, type Revision, type RevisionAction, writeRevisions } from './revisions.js';
import { readSortedPage } from './sorted-page.js';
import { checkReferences, splitByStorage, writePivots } from './storage.js';
import { UniqueValues, uniqueViolation } from './unique-values.js';
import { validateInput } from './validate.js';

export type { RevisionAction };

/** `system`: the server acts on its own behalf (registration, password reset, one's own profile); the caller checked. */
export interface WriteOptions {
  importId?: number;
  system?: boolean;
  /** The X-Socket-Id of the browser making the change: it already knows, so it is not sent the event. */
  socketId?: string;
  /** Kept on the revision (`revisions.via`): `assistant` when the person approved a change the assistant proposed. */
  via?: 'assistant';
  /** The bulk change the revision belongs to (a bulk edit): the activity feed shows the batch as one entry. */
  batchId?: string;
  /** The automation run making the write (automations/): carried on the event, so a loop of automations is seen. */
  cause?: WriteCause;
  /** No event for this record: the caller announces the whole batch once (`imported`) when it ends. */
  silent?: boolean;
  /**
   * Create and update: the request's `Idempotency-Key` and fingerprint (records/idempotency.ts). A second write with
   * the person's key writes nothing and returns the first answer (`replayed`); another request with it is a 422.
   */
  idempotency?: RequestKey;
  /**
   * Create and update: written inside this unit's transaction, with the other writes of the unit (`RecordService.inOne
   * Transaction`): validated, hooked and revised as alone; its event and after-commit work wait for the unit to commit.
   */
  unit?: WriteUnit;
  /**
   * Update: runs last in the write's transaction with what changed (`{}` when nothing did) and what the form logic
   * did to this record, to record it alongside or refuse it (a throw rolls the write back).
   */
  within?: (
    trx: Transaction<DB>,
    changes: Record<string, [unknown, unknown]>,
    logic: FormLogicOutcome,
  ) => Promise<unknown>;
}

/** Writes made together: one transaction, and what each does after commit, run once it has committed. */
export interface WriteUnit {
  trx: Transaction<DB>;
  afterCommit: Array<() => Promise<void>>;
}

export interface ListResult {
  data: Record<string, any>[];
  /** `total_estimated`: past EXACT_TOTAL_UP_TO matches, `total` is an estimate (list-query.ts readPage). */
  meta: {
    current_page: number;
    from: number | null;
    to: number | null;
    per_page: number;
    total: number;
    total_estimated?: true;
    last_page: number;
    /** Sent back as `cursor=` with the next page, it is sought instead of counted to (list-query.ts pageCursor). */
    next_cursor?: string;
  };
}

/**
 * What the record service is made with (app.ts): the database, the event bus, and what other parts of the app know
 * about records. Given once, when it is made: nothing is set on it afterwards.
 */
export interface RecordServiceParts {
  db: Kysely<DB>;
  events: AppEvents;
  /**
   * The record type's name in messages ('Job Site created successfully.', from its schema). `db` is the transaction
   * when called inside one (on PGlite, a query on the outer connection there would wait forever).
   */
  nameOf?: (def: ResourceDefinition, db?: Kysely<DB>) => Promise<string>;
  /**
   * The record type's form logic over the values of a write (the record as it will be): the values set-value actions
   * give are written, the fields it hides are never required and are stored empty. `db` as for nameOf.
   */
  formLogic?: (def: ResourceDefinition, values: Record<string, any>, db?: Kysely<DB>) => Promise<FormLogicOutcome>;
  /** The resource a relation points at (the resource registry); records name their links with it. */
  targetOf?: (references: NonNullable<FieldSpec['references']>) => ResourceDefinition | undefined;
  /** Names of linked records kept in memory (where this process is the only writer). */
  keptNames?: KeptNames | null;
  /** The totals of lists kept until the next write (with the read cache on: records/kept-totals.ts). */
  keptTotals?: KeptTotals | null;
  /** Where failures of `afterCommit` hooks are reported (the app's logger). */
  logError?: (error: unknown, message: string) => void;
  /**
   * Makes the access policy (access/policy.ts) the service asks on every read and write which rows and fields; it is
   * given the service, whose fields and reads it uses.
   */
  access: (records: RecordService) => AccessPolicy;
  /** The organization's time zone (`TIME_ZONE`, UTC when not given). */
  timeZone?: string;
  /** The rollups whose values records keep (records/kept-rollups.ts), from the schemas as `db` reads them. */
  keptRollups?: (db: Kysely<DB>) => Promise<readonly KeptRollupRef[]>;
}

/**
 * The one write path (DESIGN.md 3) and the one read path. Every create, update, delete and restore: checks the
 * permission, validates against the record type, writes the row and its revision in one transaction, and emits the
 * event on the app's event bus after commit (realtime, the map's indexes and other listeners subscribe there).
 * Reads apply the same permission rules to every row.
 */
export class RecordService {
  readonly db: Kysely<DB>;
  private readonly events: AppEvents;
  readonly nameOf: NonNullable<RecordServiceParts['nameOf']>;
  readonly formLogic: NonNullable<RecordServiceParts['formLogic']>;
  readonly targetOf: NonNullable<RecordServiceParts['targetOf']>;
  readonly keptNames: KeptNames | null;
  readonly keptTotals: KeptTotals | null;
  readonly logError: NonNullable<RecordServiceParts['logError']>;
  /** The access policy (access/policy.ts): every read and write here asks it which rows and fields. */
  readonly access: AccessPolicy;
  /** The organization's time zone (`TIME_ZONE`): where the days of relative date filters start (a test may move it). */
  timeZone: string;
  /** The moment relative date filters (`this_month`) are read at (a test may set its own clock). */
  now: () => Date = () => new Date();
  readonly keptRollups: NonNullable<RecordServiceParts['keptRollups']>;

  constructor(parts: RecordServiceParts) {
    this.db = parts.db;
    this.events = parts.events;
    this.nameOf = parts.nameOf ?? (async (def) => def.singular);
    this.formLogic = parts.formLogic ?? (async () => NO_FORM_LOGIC);
    this.targetOf = parts.targetOf ?? (() => undefined);
    this.keptNames = parts.keptNames ?? null;
    this.keptTotals = parts.keptTotals ?? null;
    this.logError = parts.logError ?? ((error, message) => console.error(message, error));
    this.access = parts.access(this);
    this.timeZone = parts.timeZone ?? 'UTC';
    this.keptRollups = parts.keptRollups ?? (async () => []);
  }

  // ---- permissions --------------------------------------------------------------------------------------

  authorize(
    user: AuthUser | null,
    def: ResourceDefinition,
    action: Action,
    category?: string | null,
  ): asserts user is AuthUser {
    this.access.authorize(user, def, action, category);
  }

  fields(def: ResourceDefinition, db: Kysely<DB> = this.db): Promise<Record<string, FieldSpec>> {
    return definitionFields(def, db);
  }

  /**
   * The fields of `def` this person may see (their role's field rules: a hidden field is not there for them), as they
   * read them (`readerFields`). Every path that filters, searches or shows a type's fields outside a list asks this.
   */
  async visibleFields(user: AuthUser | null, def: ResourceDefinition): Promise<Record<string, FieldSpec>> {
    const { hidden } = await this.access.mask(user, def);
    return this.readerFields(user, withoutHidden(await this.fields(def), hidden));
  }

  /**
   * Rows of `def` the user may read (or change, with `action`), as `t`: soft-deleted rows as `trashed` says, and the
   * person's access policy (access/policy.ts, the one row rule).
   */
  visibleRows(
    db: Kysely<DB>,
    def: ResourceDefinition,
    user: AuthUser | null,
    trashed: 'without' | 'with' | 'only' = 'without',
    action: RuleAction = 'read',
    /** The caller reads a few rows by id (access/who.ts `few`). */
    few = false,
  ) {
    return this.access.rows(db, def, user, trashed, action, few);
  }

  /** Whether `visibleRows` gives this person the same rows of `def` as anyone (no row rule applies to them). */
  readsAlike(def: ResourceDefinition, user: AuthUser | null): Promise<boolean> {
    return this.access.readsAlike(user, def);
  }

  /**
   * What the filter compiler needs for this person and record type: the related records they may read
   * (`contractor.type`), the moment and the time zone relative dates are read in.
   */
  filterScope(user: AuthUser | null, fields: Record<string, FieldSpec>, db: Kysely<DB> = this.db): FilterScope {
    return {
      db,
      fields,
      userId: user?.id ?? null,
      now: this.now(),
      timeZone: this.timeZone,
      related: async (spec) => {
        const target = spec.references ? this.targetOf(spec.references) : undefined;
        if (!target) return undefined;
        this.authorize(user, target, 'read');
        // The related records the person may read, by the fields they may see.
        const { hidden } = await this.access.mask(user, target);
        return {
          fields: withoutHidden(await this.fields(target, db), hidden),
          rows: await this.visibleRows(db, target, user),
        };
      },
    };
  }

  /**
   * The fields as this person reads them: a value computed over another type's rows (a rollup: FieldSpec
   * `computedOver`) reads only the rows they may read (the access policy), and none of a type they may not read. A
   * kept rollup (FieldSpec `kept`) counts every live row: it is read from the record by whoever reads every row of
   * the related type (`readsAlike`), and worked out over their own rows for anyone else. `live`: worked out all the
   * same (what the record service keeps).
   */
  async readerFields(
    user: AuthUser | null,
    fields: Record<string, FieldSpec>,
    { db = this.db, live = false }: { db?: Kysely<DB>; live?: boolean } = {},
  ): Promise<Record<string, FieldSpec>> {
    const over = Object.entries(fields).filter(([, spec]) => spec.computedOver && spec.readsRows);
    if (!over.length) return fields;
    const bound = { ...fields };
    for (const [slug, spec] of over) {
      const target = this.targetOf(spec.readsRows!);
      if (!target) continue;
      const readable = !user || canOnEntity(user, target.permission ?? target.type, 'read');
      // The kept value counts every live row: theirs when no row rule narrows what they read of the type.
      if (spec.kept && !live && readable && (!user || (await this.access.where(user, target, 'read', { db })) === true))
        continue;
      let visible = await this.visibleRows(db, target, user);
      // A rollup's condition, through the one filter compiler, over the related rows' own fields.
      if (readable && spec.readsRowsWhere)
        visible = visible.where(
          await compileFilter(
            parseFilterTree(spec.readsRowsWhere),
            this.filterScope(user, await this.fields(target, db), db),
          ),
        );
      const rows = readable
        ? sql`(${visible.selectAll('t')})`
        : sql`(select * from ${sql.table(target.table)} where false)`;
      bound[slug] = {
        ...spec,
        computed: (tag, alias) => spec.computedOver!(tag, alias ?? 't', rows as unknown as SqlFragment),
      };
    }
    return bound;
  }

  // ---- reads --------------------------------------------------------------------------------------------

  /** The rows a list query finds (permissions, filters and search applied, as `t`), with the fields it used. */
  private async listed(user: AuthUser | null, def: ResourceDefinition, rawQuery: Record<string, unknown>) {
    this.authorize(user, def, 'read');
    // `view=<id>`: a saved view's filters and sort (views/saved-view.ts), read as this person.
    const query = parseListQuery(await withSavedView(this, user, def, rawQuery), def);
    if (query.trashed !== 'without' && !def.softDelete) query.trashed = 'without';
    if (query.trashed !== 'without') this.authorize(user, def, 'restore');
    // Fields the person's role hides are not there for them: no filter, sort, search or count by them.
    const { hidden } = await this.access.mask(user, def);
    const fields = await this.visibleFields(user, def);
    // The type's default order by a field the role hides (contacts by last name) is no order for them: theirs is by id.
    if (!rawQuery.sort && hidden.has(query.sort.field)) query.sort = { ...query.sort, field: 'id' };
    query.sort = sortRun(query.sort, fields);
    query.thenBy = query.thenBy.map((sort) => sortRun(sort, fields));
    query.filters = await withChoiceKeys(this.db, query.filters, fields);
    let base = await this.visibleRows(this.db, def, user, query.trashed);
    // The list query's `filter[field]=value` and the view filters (`filters=`), through the one filter compiler.
    const scope = this.filterScope(user, fields);
    if (query.filters.length)
      base = base.where(await compileFilter(fromListFilters(query.filters), { ...scope, errorKey: 'filter' }));
    if (query.where) base = base.where(await compileFilter(query.where, scope));
    const searched = def.search?.filter((column) => !hidden.has(column)) ?? [];
    if (query.search && searched.length) {
      const pattern = `%${escapeLike(query.search)}%`;
      base = base.where(searchCondition(searched, fields, pattern));
    }
    return { query, fields, base };
  }

  /**
   * Checks a list query of `def` as this person would run it (the fields, operators and values of its filters, its
   * sorts) without reading a row: 422 naming what is wrong. A saved view is checked so before it is kept.
   */
  async checkListQuery(
    user: AuthUser | null,
    def: ResourceDefinition,
    rawQuery: Record<string, unknown>,
    also: { sorts?: ReadonlyArray<{ field: string }>; groupBy?: string | null } = {},
  ) {
    const { fields } = await this.listed(user, def, rawQuery);
    const check = (key: string, field: string, what: 'filter' | 'sort') => {
      try {
        resolveField(field, fields, what);
      } catch (error) {
        if (error instanceof ValidationError) throw new ValidationError({ [key]: Object.values(error.errors).flat() });
        throw error;
      }
    };
    for (const [index, sort] of (also.sorts ?? []).entries()) check(`sorts.${index}`, sort.field, 'sort');
    if (also.groupBy) check('group_by', also.groupBy, 'filter');
  }

  /**
   * A page of `def` as `user` may read it. `options.linkNames: false` leaves out the names of linked records
   * (`LINK_NAMES`), for a reader that names them itself (an export: exports/display-columns.ts).
   */
  async list(
    user: AuthUser | null,
    def: ResourceDefinition,
    rawQuery: Record<string, unknown>,
    options: { linkNames?: boolean } = {},
  ): Promise<ListResult> {
    const { query, fields, base } = await this.listed(user, def, rawQuery);
    const sortSpec = resolveField(query.sort.field, fields, 'sort');
    const pinned = sortKeyPinned(query.sort.field, sortSpec, query.filters);
    const stored = pinned ? undefined : def.storedSortKeys?.[query.sort.field];
    const sort = {
      key: pinned ? sql`t.id` : sortExpression(query.sort.field, sortSpec),
      order: query.sort.order,
      ...(stored ? { storedKey: sql.ref(`t.${stored}`) } : {}),
    };
    const searched = Boolean(query.search && def.search?.length);
    // A rule that picks a small part of the table (a turf, one's own) is no range of the sort's index: read its matches once.
    const narrow = await this.access.narrow(user, def);
    const onePass = Math.max(searched ? ONE_PASS_MATCHES : 0, narrow ? TURF_ONE_PASS_MATCHES : 0);
    // A type's own page order knows the list query's filters and one sort, not the view filters (`filters=`).
    // A page of a turf (a type's own index of it) or of one's own and team's records (their kept holders), read in order.
    const ordered: OrderedPage | null =
      user && !query.where && !query.thenBy.length
        ? ((def.orderedPage
            ? await def.orderedPage(this.db, user, query, def, this, await this.access.turfShape(user, def))
            : null) ?? (def.keepsHolders ? await heldPage(this.db, user, query, def, this) : null))
        : null;
    const { total, estimated, rows, end } = ordered
      ? { ...ordered, rows: await this.visibleInOrder(def, user, ordered.ids) }
      : query.thenBy.length
        ? await readSortedPage(
            this.db,
            def.table,
            base,
            [query.sort, ...query.thenBy].map(({ field, order }) => {
              const spec = resolveField(field, fields, 'sort');
              return { key: sortExpression(field, spec), order, ranked: choiceRanking(field, spec) };
            }),
            { ...query, keptTotals: this.keptTotals },
          )
        : await readPage(this.db, def.table, base, sort, {
            page: query.page,
            perPage: query.perPage,
            onePass,
            estimateTotal: query.estimateTotal,
            after: cursorStart(query),
            keptTotals: this.keptTotals,
          });
    const perPage = query.perPage === -1 ? Math.max(total, 1) : query.perPage;
    const outsideTurf = ordered?.outsideTurf ? new Set(ordered.outsideTurf) : undefined;
    const data = await this.presentFor(user, def, rows, fields, options.linkNames ?? true, outsideTurf);
    const from = rows.length ? (query.perPage === -1 ? 1 : (query.page - 1) * perPage + 1) : null;
    return {
      data,
      meta: {
        current_page: query.perPage === -1 ? 1 : query.page,
        from,
        to: from === null ? null : from + rows.length - 1,
        per_page: query.perPage,
        total,
        ...(estimated ? { total_estimated: true as const } : {}),
        last_page: query.perPage === -1 ? 1 : Math.max(1, Math.ceil(total / perPage)),
        ...(end && from !== null && from + rows.length - 1 < total ? { next_cursor: pageCursor(query, end) } : {}),
      },
    };
  }

  /** The rows of these ids the person may read, in the order of the ids. */
  private async visibleInOrder(def: ResourceDefinition, user: AuthUser | null, ids: number[]) {
    if (!ids.length) return [];
    const found = await (await this.visibleRows(this.db, def, user, 'without', 'read', true))
      .selectAll('t')
      .where('t.id', 'in', ids)
      .execute();
    const byId = new Map(found.map((row: Record<string, any>) => [Number(row.id), row]));
    return ids.map((id) => byId.get(id)).filter((row): row is Record<string, any> => row !== undefined);
  }

  /**
   * The rows the list query `rawQuery` finds, as `t`, not yet selected (the same permissions, filters, saved view and
   * search as the list), with the fields the person may see: for a layout that reads them its own way (the map's points).
   */
  async matchingRows(user: AuthUser | null, def: ResourceDefinition, rawQuery: Record<string, unknown>) {
    const { fields, base } = await this.listed(user, def, rawQuery);
    return { fields, base };
  }

  /** The ids of the rows the list query `rawQuery` finds (the same permissions, filters and search), in id order, at most `limit`. */
  async matchingIds(
    user: AuthUser | null,
    def: ResourceDefinition,
    rawQuery: Record<string, unknown>,
    limit: number,
  ): Promise<number[]> {
    return (await this.matchingValues(user, def, rawQuery, [], limit)).map((row) => row.id);
  }

  /**
   * The rows the list query `rawQuery` finds (the same permissions, filters and search), in id order, at most `limit`,
   * each with its id and only the `wanted` fields the person may see (those their role hides are left out), as the
   * database holds them: for work over thousands of records that needs few of their fields (a text to a list), in
   * one query, without presenting every field of every row. A link to several records (a pivot) has no single value
   * here and is left out too.
   */
  async matchingValues(
    user: AuthUser | null,
    def: ResourceDefinition,
    rawQuery: Record<string, unknown>,
    wanted: readonly string[],
    limit: number,
  ): Promise<Array<Record<string, unknown> & { id: number }>> {
    const { fields, base } = await this.listed(user, def, rawQuery);
    const read = [...new Set(wanted)].filter(
      (field) => field !== 'id' && fields[field] && typeof fields[field].storage !== 'object',
    );
    const rows = await base
      .select([sql.ref('t.id').as('id'), ...read.map((field) => fieldExpression(field, fields[field]).as(field))])
      .orderBy('t.id')
      .limit(limit)
      .execute();
    return rows.map((row: Record<string, unknown>) => ({ ...row, id: Number(row.id) }));
  }

  /**
   * How many rows the list query `rawQuery` finds (the same permissions, filters and search), and with `groupBy` how
   * many per value of that field, in one query (a row linked to several ids of a pivot field counts once for each).
   */
  async count(
    user: AuthUser | null,
    def: ResourceDefinition,
    rawQuery: Record<string, unknown>,
    groupBy?: string,
  ): Promise<{ total: number; groups?: Array<{ value: unknown; count: number }> }> {
    const { fields, base } = await this.listed(user, def, rawQuery);
    const counted = await base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirst();
    const total = Number(counted?.n ?? 0);
    if (!groupBy) return { total };
    const groups = await groupRows(base, fields, groupBy);
    return { total, groups: groups.map(({ value, count }) => ({ value, count })) };
  }

  /**
   * The groups of the list query `rawQuery` by the value of `groupBy` (a grid grouped by a field): each value's count
   * and the sums of the number fields the person may see, with the list's own total and sums; the same permissions,
   * filters, search and saved view as the list. Every row is in a group (those without a value in the last one).
   */
  async groups(user: AuthUser | null, def: ResourceDefinition, rawQuery: Record<string, unknown>, groupBy: string) {
    const { fields, base } = await this.listed(user, def, rawQuery);
    const sums = summableFields(fields);
    const { groups, total } = await groupsWithTotal(this.db, base, fields, groupBy, sums);
    return { groups, total: total.count, sums: total.sums };
  }

  /**
   * The sum or the average of a number field over the records `count` counts (the same filters, access rules and
   * hidden fields): `counted` records have a value, `value` is null when none has. 422 for a field that holds no number.
   * With `groupBy` (sums only), also each group's count and sum, as `count` groups ("top contractors by total value").
   */
  async measure(
    user: AuthUser | null,
    def: ResourceDefinition,
    rawQuery: Record<string, unknown>,
    measure: { fn: 'sum' | 'avg'; field: string; groupBy?: string },
  ): Promise<{
    total: number;
    counted: number;
    value: number | null;
    groups?: Array<{ value: unknown; count: number; sum: number }>;
  }> {
    const { fields, base } = await this.listed(user, def, rawQuery);
    const spec = fields[measure.field];
    if (!spec || spec.filterable === false || !['number', 'integer'].includes(spec.kind) || spec.references)
      throw new ValidationError({ [measure.fn]: [`"${measure.field}" is not a number that can be added up.`] });
    if (measure.groupBy && measure.fn !== 'sum')
      throw new ValidationError({ [measure.fn]: ['Only a sum can be given per group.'] });
    const value = fieldExpression(measure.field, spec);
    const row = await base
      .select([
        sql<number>`count(*)::int`.as('n'),
        sql<number>`count(${value})::int`.as('m'),
        sql<string | null>`${sql.raw(measure.fn)}(${value})`.as('v'),
      ])
      .executeTakeFirst();
    const groups = measure.groupBy
      ? (await groupRows(base, fields, measure.groupBy, { sums: [measure.field] })).map((group) => ({
          value: group.value,
          count: group.count,
          sum: group.sums[measure.field],
        }))
      : undefined;
    return {
      total: Number(row?.n ?? 0),
      counted: Number(row?.m ?? 0),
      value: row?.v === null || row?.v === undefined ? null : Number(row.v),
      ...(groups ? { groups } : {}),
    };
  }

  async show(user: AuthUser | null, def: ResourceDefinition, id: number, options: { withTrashed?: boolean } = {}) {
    this.authorize(user, def, 'read');
    const row = await this.findVisible(this.db, def, user, id, options.withTrashed ? 'with' : 'without');
    const [record] = await this.presentFor(user, def, [row], await this.fields(def));
    return record;
  }

  /**
   * The records of these ids that `user` may read, as `show` answers each, in one read (an automation's run job reads
   * its runs' records so): those they may not read, or that are no more, are left out.
   */
  async showMany(user: AuthUser | null, def: ResourceDefinition, ids: readonly number[]) {
    this.authorize(user, def, 'read');
    const rows = await this.visibleInOrder(def, user, [...new Set(ids)]);
    return this.presentFor(user, def, rows, await this.fields(def));
  }

  /**
   * Records as `user` reads them: presented, then what the type keeps from this reader taken out (hooks.presentFor),
   * with the names of the records they link to that the reader may read (representation.ts nameLinks).
   */
  private async presentFor(
    user: AuthUser | null,
    def: ResourceDefinition,
    rows: Record<string, any>[],
    fields: Record<string, FieldSpec>,
    linkNames = true,
    /** Which of them are the reader's own outside their turf, when the page read says (access/turf-page.ts). */
    outsideTurf?: ReadonlySet<number>,
  ) {
    const presented = await this.present(def, rows, fields);
    if (!user) return presented;
    return this.forReader(user, def, presented, fields, linkNames, outsideTurf, regionsOfSites(def, rows));
  }

  /**
   * Presented records as this person may read them: the fields their role hides taken out, what the type keeps from
   * them (hooks.presentFor), the names of the records they link to that they may read, and for a person limited to a
   * turf the note on their own records outside it (`outside_turf`).
   */
  private async forReader(
    user: AuthUser,
    def: ResourceDefinition,
    presented: Record<string, any>[],
    fields: Record<string, FieldSpec>,
    linkNames = true,
    outsideTurf?: ReadonlySet<number>,
    /** Sites' regions from their rows: which lie outside the turf is read from them (AccessPolicy.outsideTurf). */
    regions?: SiteRegions,
  ) {
    const mask = await this.access.mask(user, def);
    const records = masked(presented, mask);
    // Rollups again, over the rows this person may read (present() read every live row).
    const readerOnly = await this.readerFields(
      user,
      Object.fromEntries(Object.entries(withoutHidden(fields, mask.hidden)).filter(([, spec]) => spec.computedOver)),
    );
    await addComputedValues(this.db, def, readerOnly, records);
    await def.hooks?.presentFor?.(records, user, this);
    if (linkNames) await nameLinks(this, user, withoutHidden(fields, mask.hidden), records, this.targetOf);
    const outside =
      outsideTurf ??
      (await this.access.outsideTurf(
        user,
        def,
        records.map((record) => record.id),
        regions,
      ));
    for (const record of records) if (outside.has(record.id)) record.outside_turf = true;
    return records;
  }

  /** A record a write answered with, as `user` reads it: a copy with the names of its links (the event keeps the record as it is). */
  async readerCopy(user: AuthUser | null, def: ResourceDefinition, record: Record<string, any>) {
    const [copy] = await this.readerCopies(user, def, [record]);
    return copy;
  }

  /** Several records as `readerCopy` gives each, read together. */
  async readerCopies(user: AuthUser | null, def: ResourceDefinition, records: readonly Record<string, any>[]) {
    const copies = records.map((record) => ({ ...record }));
    if (!user || !copies.length) return copies;
    return this.forReader(user, def, copies, await this.fields(def));
  }

  /**
   * The row `id` of `def` if the person may read it (and, with `action`, change it): 404 when there is no such record,
   * 403 in the words of the rule when there is one out of their reach ("This site is outside your turf."); a private
   * record (an owner column) or a view not shared with them is 404, as if it did not exist.
   */
  private async findVisible(
    db: Kysely<DB>,
    def: ResourceDefinition,
    user: AuthUser | null,
    id: number,
    trashed: 'without' | 'with' | 'only',
    lock = false,
    action: RuleAction = 'read',
  ) {
    const missing = async () =>
      notFound(`No ${(await this.nameOf(def, db)).toLowerCase()} has the id ${id}. It may have been deleted.`);
    if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647)
      throw notFound(`No ${def.singular.toLowerCase()} has the id ${id}.`);
    let query = (await this.visibleRows(db, def, null, trashed)).selectAll('t').where('t.id', '=', id);
    if (lock) query = query.forUpdate();
    const row = (await query.executeTakeFirst()) as Record<string, any> | undefined;
    if (!row) throw await missing();
    if (!user) return row;
    // An update or delete rule holds the read rule too (common/access-rules.ts effectiveRule): admitted to the action,
    // the person may read it. Refused, the read rule says which refusal it is.
    if (action !== 'read' && (await this.access.admits(db, def, user, id, action))) return row;
    for (const step of action === 'read' ? (['read'] as const) : (['read', action] as const)) {
      if (step === 'read' && (await this.access.admits(db, def, user, id, step))) continue;
      // Someone else's private record, or one of a category the person may not read at all (SPEC 6's category
      // permissions): not there for them. Outside a rule of their role: said in the rule's words.
      const categories = this.access.categories(user, def);
      const hiddenCategory = categories !== 'all' && !categories.includes(row[def.categoryColumn!]);
      if (step === 'read' && (def.ownerColumn || keptFromOthers(def.type) || hiddenCategory)) throw await missing();
      throw forbidden(await this.access.refusal(user, def, step, db));
    }
    return row;
  }

  /** Turns rows into records: hidden columns dropped, custom fields flattened, pivot ids attached. */
  async present(
    def: ResourceDefinition,
    rows: Record<string, any>[],
    fields?: Record<string, FieldSpec>,
    db: Kysely<DB> = this.db,
  ) {
    fields ??= await this.fields(def, db);
    const hidden = new Set(def.hidden ?? []);
    const records = rows.map((row) => {
      const record: Record<string, any> = {};
      for (const [key, value] of Object.entries(row)) {
        if (hidden.has(key) || key === 'custom') continue;
        record[key] = value;
      }
      // Values of custom fields deleted since are kept in the row but not shown.
      if (row.custom)
        for (const [key, value] of Object.entries(row.custom))
          if (!(key in record) && (!def.customFields || key in fields!)) record[key] = value;
      return record;
    });
    // The pivot links of every pivot field, for the whole page in one query.
    const ids = records.map((r) => r.id);
    const pivots = Object.entries(fields).flatMap(([name, spec]) =>
      typeof spec.storage === 'object' ? [{ name, pivot: spec.storage }] : [],
    );
    const linkQueries = pivots.map(({ name, pivot }) => {
      let linkQuery = dynamicTables(db)
        .selectFrom(pivot.pivot)
        .select([sql<string>`${name}::text`.as('field'), `${pivot.ownKey} as own`, `${pivot.otherKey} as other`])
        .where(pivot.ownKey, 'in', ids)
        .$castTo<{ field: string; own: number; other: number }>();
      for (const [column, constant] of Object.entries(pivot.where ?? {}))
        linkQuery = linkQuery.where(column, '=', constant);
      return linkQuery;
    });
    const links: Array<{ field: string; own: number; other: number }> =
      ids.length && linkQueries.length ? await linkQueries.reduce((all, query) => all.unionAll(query)).execute() : [];
    const byField = new Map<string, Map<number, number[]>>(pivots.map(({ name }) => [name, new Map()]));
    for (const link of links) {
      const byOwner = byField.get(link.field)!;
      byOwner.set(link.own, [...(byOwner.get(link.own) ?? []), link.other]);
    }
    for (const [name, byOwner] of byField)
      for (const record of records) record[name] = (byOwner.get(record.id) ?? []).sort((a, b) => a - b);
    await addComputedValues(db, def, fields, records);
    await def.hooks?.present?.(records, db);
    return records;
  }

  // ---- batch writes (imports) --------------------------------------------------------------------------

  /**
   * Writes a chunk of imported rows inside the caller's transaction (records/batch-writer.ts): permission checked
   * once (and per row for categories), each row validated like a hand-made record (form logic included), existing
   * records matched on `keyField` in one query, creates and updates written in bulk, unchanged rows skipped,
   * protected fields a person edited left alone, 'imported' revisions and undo entries written. Returns one
   * outcome per row (created, updated, skipped or failed with its reason). Emits nothing: the caller announces
   * one `imported` event for the whole import after it ends.
   */
  async importBatch(
    trx: Transaction<DB>,
    user: AuthUser,
    def: ResourceDefinition,
    rows: readonly BatchRow[],
    options: BatchOptions,
  ): Promise<BatchOutcome[]> {
    return importBatch(this, trx, user, def, rows, options);
  }

  // ---- one field's values across many records (a record type changed) ----------------------------------

  /**
   * New values of one field in these records, inside the caller's transaction (a field retyped, its choices remapped:
   * schemas/field-changes.ts), each with its revision `{field: [before, after]}`, in a few statements whatever their
   * number (records/field-value-writes.ts). Emits nothing: the change of the record type announces itself.
   */
  async rewriteFieldValues(trx: Kysely<DB>, home: ValueHome, changes: readonly ValueChange[], user: AuthUser | null) {
    await rewriteValues(trx, home, changes, user);
    const written = changes.map(({ id, before, after }) => ({
      type: home.type,
      id,
      action: 'updated' as const,
      changes: { [home.slug]: [before, after] },
    }));
    await keepRollups(this, trx, written);
  }

  /**
   * Takes one field's values (of the records `ids`, or all of the type) out of the records into `field_value_archive`,
   * inside the caller's transaction (a field deleted, values a new type cannot hold); returns how many.
   */
  archiveFieldValues(
    trx: Kysely<DB>,
    home: ValueHome,
    field: FieldSnapshot,
    reason: string,
    user: AuthUser | null,
    ids?: readonly number[],
  ): Promise<number> {
    return archiveValues(trx, home, field, reason, user, ids);
  }

  /**
   * Keeps the parts of values that records lose (a field of several values becoming a field of one keeps the first)
   * in `field_value_archive`, inside the caller's transaction; returns how many.
   */
  archiveFieldParts(
    trx: Kysely<DB>,
    home: ValueHome,
    field: FieldSnapshot,
    reason: string,
    user: AuthUser | null,
    parts: ReadonlyArray<{ id: number; value: unknown }>,
  ): Promise<number> {
    return archiveParts(trx, home, field, reason, user, parts);
  }

  // ---- system and bulk writes --------------------------------------------------------------------------

  /**
   * A record the server writes on its own authority with values it built itself (a job row: an import with its
   * files, an export with its parameters), so no validation and no type hooks; the caller has checked what the
   * person may do. In one transaction: the row, its `created` revision when `revision` says what to record, and
   * `within` (enqueue the job that processes it); after commit, the `created` event.
   */
  async createSystem(
    user: AuthUser | null,
    def: ResourceDefinition,
    values: Record<string, unknown>,
    options: {
      revision?: Record<string, unknown>;
      within?: (trx: Transaction<DB>, row: Record<string, any>) => Promise<unknown>;
      socketId?: string;
    } = {},
  ) {
    const record = await this.db.transaction().execute(async (trx) => {
      const row = await dynamicTables(trx)
        .insertInto(def.table)
        .values(values)
        .returningAll()
        .$castTo<StoredRecord>()
        .executeTakeFirstOrThrow();
      if (options.revision)
        await this.recordWrites(trx, user, [
          { type: def.type, id: row.id, action: 'created', changes: options.revision },
        ]);
      await options.within?.(trx, row);
      const [presented] = await this.present(def, [row], undefined, trx);
      return presented;
    });
    this.announce(def, 'created', record, { user, socketId: options.socketId });
    return record;
  }

  /**
   * Many rows checked and built by the caller (region shapes read from a file or the Census package), written in one
   * transaction in multi-row statements (records/batch-writer.ts): rows with an `id` update that record, the others
   * are created; each gets an `imported` revision saying `changes`; `within` runs last in the same transaction (place
   * the sites inside the shapes). The person needs create and/or update permission unless `system` (the server loads
   * shapes on demand). After commit, one `imported` event with the last record written and how many there were.
   * The revisions are one batch (`batchId`, `{type}:{uuid}` unless given): the activity feed shows them as one entry.
   */
  async writeBulk<T>(
    user: AuthUser | null,
    def: ResourceDefinition,
    rows: readonly BulkRow[],
    options: { system?: boolean; batchId?: string; within?: (trx: Transaction<DB>, ids: number[]) => Promise<T> } = {},
  ): Promise<{ ids: number[]; created: number; updated: number; within: T | undefined }> {
    if (!options.system) {
      if (rows.some((row) => row.id === undefined)) this.authorize(user, def, 'create');
      if (rows.some((row) => row.id !== undefined)) this.authorize(user, def, 'update');
    }
    const author = options.system ? null : user;
    const batchId = options.batchId ?? `${def.type}:${randomUUID()}`;
    const result = await this.db.transaction().execute(async (trx) => {
      const ids = await bulkWrite(trx, def, rows);
      await this.recordWrites(
        trx,
        author,
        rows.map((row, i) => ({ type: def.type, id: ids[i], action: 'imported', changes: row.changes, batchId })),
      );
      const within = await options.within?.(trx, ids);
      return { ids, within };
    });
    const lastId = result.ids.at(-1);
    if (lastId !== undefined) {
      const row = await dynamicTables(this.db)
        .selectFrom(def.table)
        .selectAll()
        .where('id', '=', lastId)
        .executeTakeFirst();
      if (row) {
        const [last] = await this.present(def, [row]);
        this.announce(def, 'imported', { ...last, imported: result.ids.length }, { user: author });
      }
    }
    const updated = rows.filter((row) => row.id !== undefined).length;
    return { ids: result.ids, created: rows.length - updated, updated, within: result.within };
  }

  // ---- writes -------------------------------------------------------------------------------------------

  async create(
    user: AuthUser | null,
    def: ResourceDefinition,
    body: unknown,
    options: WriteOptions = {},
  ): Promise<WriteAnswer> {
    const category = def.categoryColumn ? ((body as any)?.[def.categoryColumn] ?? null) : undefined;
    if (!options.system) this.authorize(user, def, 'create', category);
    const once = this.onceFor(user, options, `create ${def.name}`);
    const db = options.unit?.trx ?? this.db;
    const replayed = once && (await firstAnswer(db, once));
    if (replayed) return { ...replayed, replayed: true };
    const fields = await this.fields(def, db);
    const logic = isObject(body) ? await this.formLogic(def, body, db) : NO_FORM_LOGIC;
    const sent = isObject(body) ? withSetValues(body, logic, fields, def.readOnly) : body;
    const { values } = validateInput(sent, fields, {
      mode: 'create',
      readOnly: def.readOnly,
      hidden: logic.hidden,
      setByLogic: new Set(Object.keys(logic.setValues)),
    });
    if (!options.system && user) await this.access.checkFieldRules(user, def, values);
    const outcome = await this.writing(fields, options.unit, async (trx): Promise<WriteAnswer> => {
      const first = once && (await claim(trx, once));
      if (first) return { ...first, replayed: true };
      const ctx: WriteContext & { action: 'create' } = {
        user,
        trx,
        records: this,
        action: 'create' as const,
        importId: options.importId,
      };
      await checkReferences(trx, values, fields);
      const prepared = emptyHidden(
        (await def.hooks?.beforeWrite?.(values, ctx)) ?? values,
        logic,
        fields,
        undefined,
        def.readOnly,
      );
      ctx.values = prepared;
      if (UniqueValues.any(fields)) await new UniqueValues(this, trx, def, fields, user).check(prepared);
      const { columns, custom, pivots } = splitByStorage(prepared, fields);
      const now = new Date();
      const scope = def.scope ? { [def.scope.column]: def.scope.value } : {};
      const inserted = await dynamicTables(trx)
        .insertInto(def.table)
        .values({
          ...columns,
          ...scope,
          ...(def.customFields ? { custom: JSON.stringify(custom) } : {}),
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .$castTo<StoredRecord>()
        .executeTakeFirstOrThrow();
      await writePivots(trx, inserted.id, pivots, fields);
      await def.hooks?.afterWrite?.(inserted, ctx);
      await this.writeRevision(
        trx,
        def,
        inserted.id,
        options.importId ? 'imported' : 'created',
        user,
        changesOf({}, prepared),
        options.importId,
        options.via,
        undefined,
        { event: 'created', cause: options.cause },
      );
      // What one writes stays inside what one may read: a new site outside one's turf (and not one's own) is refused.
      // Checked after the revision, which keeps whose the record is (access/holders.ts) for the rule to read.
      if (!options.system && user) await this.access.assertLands(trx, def, user, [inserted.id], 'read', inserted);
      const [presented] = await this.present(def, [await this.withKeptValues(trx, def, inserted)], fields, trx);
      const answer = { record: presented, message: `${await this.nameOf(def, trx)} created successfully.` };
      if (once) await keep(trx, once, answer);
      return { ...answer, claimed: once };
    });
    if (outcome.replayed) return outcome;
    await this.whenCommitted(options.unit, async () => {
      this.announce(def, 'created', outcome.record, { user, socketId: options.socketId, cause: options.cause });
      await this.afterCommit(def, outcome.record, 'create', user);
    });
    return outcome;
  }

  async update(
    user: AuthUser | null,
    def: ResourceDefinition,
    id: number,
    body: unknown,
    options: WriteOptions = {},
  ): Promise<WriteAnswer> {
    const check = (category?: string | null) => options.system || this.authorize(user, def, 'update', category);
    check();
    const once = this.onceFor(user, options, `update ${def.name} ${id}`);
    const replayed = once && (await firstAnswer(options.unit?.trx ?? this.db, once));
    if (replayed) return { ...replayed, replayed: true };
    const fields = await this.fields(def, options.unit?.trx);
    let changed: Record<string, [unknown, unknown]> = {};
    const outcome = await this.writing(fields, options.unit, async (trx): Promise<WriteAnswer> => {
      const first = once && (await claim(trx, once));
      if (first) return { ...first, replayed: true };
      const answer = async (record: Record<string, any>): Promise<WriteAnswer> => {
        const kept = { record, message: `${await this.nameOf(def, trx)} updated successfully.` };
        if (once) await keep(trx, once, kept);
        return { ...kept, claimed: once };
      };
      const existingRow = await this.findVisible(trx, def, options.system ? null : user, id, 'without', true, 'update');
      if (def.categoryColumn) check(existingRow[def.categoryColumn]);
      const sentVersion = (body as any)?.updated_at;
      if (
        sentVersion &&
        existingRow.updated_at &&
        new Date(sentVersion).getTime() !== new Date(existingRow.updated_at).getTime()
      ) {
        throw conflict(
          `Someone else saved this ${(await this.nameOf(def, trx)).toLowerCase()} after you opened it. Reload to see their changes, then make yours again.`,
        );
      }
      const [existing] = await this.present(def, [existingRow], fields, trx);
      const logic = isObject(body) ? await this.formLogic(def, { ...existing, ...body }, trx) : NO_FORM_LOGIC;
      const sent = isObject(body) ? withSetValues(body, logic, fields, def.readOnly) : body;
      const { values } = validateInput(sent, fields, {
        mode: 'update',
        readOnly: def.readOnly,
        hidden: logic.hidden,
        existing,
        setByLogic: new Set(Object.keys(logic.setValues)),
      });
      if (def.categoryColumn && def.categoryColumn in values) check(values[def.categoryColumn]);
      if (!options.system && user) await this.access.checkFieldRules(user, def, values, existing);
      const ctx: WriteContext & { action: 'update' } = {
        user,
        trx,
        records: this,
        action: 'update' as const,
        existing,
        importId: options.importId,
      };
      await checkReferences(trx, values, fields);
      const prepared = emptyHidden(
        (await def.hooks?.beforeWrite?.(values, ctx)) ?? values,
        logic,
        fields,
        existing,
        def.readOnly,
      );
      ctx.values = prepared;
      const changes = changesOf(existing, prepared);
      changed = changes;
      if (Object.keys(changes).length === 0) {
        await options.within?.(trx, changes, logic);
        return answer(existing);
      }
      if (UniqueValues.any(fields)) await new UniqueValues(this, trx, def, fields, user).check(prepared, id);
      const { columns, custom, pivots } = splitByStorage(prepared, fields);
      const update: Record<string, any> = { ...columns, updated_at: new Date() };
      if (Object.keys(custom).length) update.custom = sql`t.custom || ${JSON.stringify(custom)}::jsonb`;
      const updated = await dynamicTables(trx)
        .updateTable(`${def.table} as t`)
        .set(update)
        .where('t.id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await writePivots(trx, id, pivots, fields);
      await def.hooks?.afterWrite?.(updated, ctx);
      await this.writeRevision(
        trx,
        def,
        id,
        options.importId ? 'imported' : 'updated',
        user,
        changes,
        options.importId,
        options.via,
        options.batchId,
        { event: 'updated', cause: options.cause },
      );
      if (!options.system && user) await this.access.assertLands(trx, def, user, [id], 'update', updated);
      await options.within?.(trx, changes, logic);
      const [presented] = await this.present(def, [await this.withKeptValues(trx, def, updated)], fields, trx);
      return answer(presented);
    });
    if (outcome.replayed) return outcome;
    await this.whenCommitted(options.unit, async () => {
      if (!options.silent)
        this.announce(def, 'updated', outcome.record, {
          user,
          socketId: options.socketId,
          cause: options.cause,
          changes: changed,
        });
      await this.afterCommit(def, outcome.record, 'update', user);
    });
    return outcome;
  }

  /**
   * Several creates and updates in one transaction (a conversation with the assessment it changes and the task it
   * asks for): `write` passes the unit to each (`options.unit`); each is validated, hooked and revised as alone, and
   * all are announced once the transaction has committed. A failure of any rolls all back.
   */
  async inOneTransaction<T>(write: (unit: WriteUnit) => Promise<T>): Promise<T> {
    const afterCommit: WriteUnit['afterCommit'] = [];
    const result = await this.db.transaction().execute((trx) => write({ trx, afterCommit }));
    for (const run of afterCommit) await run();
    return result;
  }

  /**
   * A write's transaction (the unit's, when it is one of several); a unique index's refusal (two writes of one value
   * at once) answers 422 on the field.
   */
  private async writing<T>(
    fields: Record<string, FieldSpec>,
    unit: WriteUnit | undefined,
    work: (trx: Transaction<DB>) => Promise<T>,
  ): Promise<T> {
    try {
      return unit ? await work(unit.trx) : await this.db.transaction().execute(work);
    } catch (error) {
      throw uniqueViolation(error, fields) ?? error;
    }
  }

  private async whenCommitted(unit: WriteUnit | undefined, work: () => Promise<void>) {
    if (unit) unit.afterCommit.push(work);
    else await work();
  }

  /** The key of a write sent with one by a signed-in person (system writes have none). */
  private onceFor(user: AuthUser | null, options: WriteOptions, scope: string): Claim | undefined {
    return options.idempotency && user && !options.system
      ? { ...options.idempotency, userId: user.id, scope }
      : undefined;
  }

  async remove(user: AuthUser | null, def: ResourceDefinition, id: number, options: WriteOptions = {}) {
    this.authorize(user, def, 'delete');
    const fields = await this.fields(def);
    const record = await this.db.transaction().execute(async (trx) => {
      const row = await this.findVisible(trx, def, user, id, 'without', true, 'delete');
      if (def.categoryColumn) this.authorize(user, def, 'delete', row[def.categoryColumn]);
      const [existing] = await this.present(def, [row], fields, trx);
      await def.hooks?.beforeRemove?.(existing, { user, trx, records: this, existing });
      if (def.softDelete) {
        await dynamicTables(trx)
          .updateTable(def.table)
          .set({ deleted_at: new Date(), updated_at: new Date() })
          .where('id', '=', id)
          .execute();
      } else {
        await dynamicTables(trx).deleteFrom(def.table).where('id', '=', id).execute();
      }
      await def.hooks?.afterWrite?.(existing, { user, trx, records: this, existing, action: 'delete' });
      await this.writeRevision(trx, def, id, 'deleted', user, {}, undefined, undefined, undefined, {
        cause: options.cause,
        record: existing,
      });
      return existing;
    });
    this.announce(def, 'deleted', record, { user, socketId: options.socketId, cause: options.cause });
    await this.afterCommit(def, record, 'delete', user);
    return { record, message: `${await this.nameOf(def)} deleted successfully.` };
  }

  async restore(user: AuthUser | null, def: ResourceDefinition, id: number, options: WriteOptions = {}) {
    if (!def.restorable) throw new HttpError(405, `${def.singular} records cannot be restored.`);
    this.authorize(user, def, 'restore');
    const fields = await this.fields(def);
    const record = await this.writing(fields, undefined, async (trx) => {
      const row = await this.findVisible(trx, def, user, id, 'only', true, 'delete');
      const restored = await dynamicTables(trx)
        .updateTable(def.table)
        .set({ deleted_at: null, updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await def.hooks?.afterWrite?.(restored, { user, trx, records: this, existing: row, action: 'restore' });
      await this.writeRevision(trx, def, id, 'restored', user, {});
      const [presented] = await this.present(def, [await this.withKeptValues(trx, def, restored)], fields, trx);
      return presented;
    });
    this.announce(def, 'restored', record, { user, socketId: options.socketId });
    await this.afterCommit(def, record, 'restore', user);
    return { record, message: `${await this.nameOf(def)} restored successfully.` };
  }

  /**
   * A revision of another record written in `trx`, beside a write the service is making: a record type's field,
   * logic block or trash changed is a revision of the schema itself; an automation made, changed or deleted is one of
   * the automation. Revisions are written by the service (and the batch and field-value writers it runs) and nowhere
   * else. An update with no `changes` writes nothing.
   */
  async reviseWithin(
    trx: Transaction<DB>,
    target: { type: string; id: number },
    user: AuthUser | null,
    changes: Record<string, [unknown, unknown]>,
    action: 'created' | 'updated' | 'deleted' = 'updated',
  ): Promise<void> {
    if (action === 'updated' && !Object.keys(changes).length) return;
    await writeRevisions(trx, user, [{ type: target.type, id: target.id, action, changes }]);
  }

  private async writeRevision(
    trx: Transaction<DB>,
    def: ResourceDefinition,
    id: number,
    action: RevisionAction,
    user: AuthUser | null,
    changes: Record<string, unknown>,
    importId?: number,
    via?: WriteOptions['via'],
    batchId?: string,
    heard: Pick<Revision, 'event' | 'cause' | 'record'> = {},
  ) {
    await this.recordWrites(trx, user, [{ type: def.type, id, action, changes, importId, via, batchId, ...heard }]);
  }

  /** A row written in `trx` with the values of its kept rollups as its write left them (written after the row). */
  private async withKeptValues(trx: Kysely<DB>, def: ResourceDefinition, row: Record<string, any>) {
    if (!def.customFields) return row;
    const kept = await this.keptRollups(trx);
    if (!kept.some((ref) => this.targetOf(ref.owner)?.type === def.type)) return row;
    const fresh = await dynamicTables(trx)
      .selectFrom(def.table)
      .select('custom')
      .where('id', '=', row.id)
      .executeTakeFirst();
    return fresh ? { ...row, custom: fresh.custom } : row;
  }

  /**
   * The revisions of records written in `trx` (by this service and the batch writers it runs), and what the writes
   * move: the kept values of the rollups reading those records (records/kept-rollups.ts), in the same transaction.
   */
  async recordWrites(trx: Kysely<DB>, user: AuthUser | null, revisions: readonly Revision[]) {
    await writeRevisions(trx, user, revisions);
    await keepRollups(this, trx, revisions);
    await keepHolders(this, trx, revisions);
  }

  /**
   * After commit: tells the app's event bus that a record changed (`record` as presented), or with a record without
   * an id that many records of the type did (`{import_id}`). The listeners run after the writer's request (the bus
   * queues the event) and never fail the write.
   */
  announce(
    def: ResourceDefinition,
    event: RecordAction,
    record: Record<string, any>,
    options: Pick<RecordEvent, 'socketId' | 'cause' | 'changes'> & { user?: AuthUser | null } = {},
  ): void {
    const id = typeof record.id === 'number' ? record.id : null;
    this.events.emit({
      event,
      type: def.type,
      id,
      record,
      user: options.user ?? null,
      resource: def,
      socketId: options.socketId,
      ...(options.cause ? { cause: options.cause } : {}),
      ...(options.changes ? { changes: options.changes } : {}),
    });
  }

  private async afterCommit(
    def: ResourceDefinition,
    record: Record<string, any>,
    action: 'create' | 'update' | 'delete' | 'restore',
    user: AuthUser | null,
  ) {
    if (!def.hooks?.afterCommit) return;
    try {
      await def.hooks.afterCommit(record, { action, user, records: this });
    } catch (error) {
      this.logError(error, `After-commit work for ${def.type} ${record.id} failed`);
    }
  }
}

/**
 * A create's or update's answer: the record written and its message, with `claimed` the Idempotency-Key it was written
 * under; `replayed` when an earlier attempt with the same key wrote it (`sent`: that answer as it was sent).
 */
export interface WriteAnswer extends FirstAnswer {
  replayed?: boolean;
  claimed?: Claim;
}

/** The fields without those the person's role hides. */
function withoutHidden(fields: Record<string, FieldSpec>, hidden: ReadonlySet<string>) {
  if (!hidden.size) return fields;
  return Object.fromEntries(Object.entries(fields).filter(([name]) => !hidden.has(name)));
}

const isObject = (body: unknown): body is Record<string, any> =>
  body !== null && typeof body === 'object' && !Array.isArray(body);

/** The regions of sites read whole (`in_region_ids`, not shown), for AccessPolicy.outsideTurf. */
function regionsOfSites(def: ResourceDefinition, rows: readonly Record<string, any>[]): SiteRegions | undefined {
  if (def.table !== 'sites' || !rows.every((row) => 'in_region_ids' in row)) return undefined;
  return new Map(rows.map((row) => [Number(row.id), row.in_region_ids as number[] | null]));
}
