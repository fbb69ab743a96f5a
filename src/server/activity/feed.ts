import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import { can } from '../../common/permissions.js';
import type { FeedKind } from '../../common/report-types.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { dynamicTables } from '../db/dynamic-tables.js';
import { timestamp } from '../http/contracts.js';
import { rangeCondition } from '../reports/scope.js';
import { type BatchSummary, batchHeads, batchNewerThan, summarizeBatches } from './batches.js';
import { REVISION_COLUMNS, revisionVisibility } from './visibility.js';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-11-21.');
const list = <Item extends z.ZodType>(item: Item) =>
  z.preprocess(
    (v) => (v === undefined || v === '' ? undefined : Array.isArray(v) ? v : String(v).split(',')),
    z.array(item).max(40).optional(),
  );

export const feedQuery = z
  .object({
    per_page: z.coerce.number().int().min(1).max(100).default(25),
    /** Keyset paging: entries older than this entry id. */
    before: z.coerce.number().int().min(1).optional(),
    /** Entries newer than this id (the live top-up). */
    after: z.coerce.number().int().min(0).optional(),
    user_id: z.coerce.number().int().min(1).optional(),
    type: list(z.string().max(60)),
    action: list(z.enum(['created', 'updated', 'deleted', 'restored', 'imported'])),
    region_id: z.coerce.number().int().min(1).optional(),
    from: day.optional(),
    to: day.optional(),
    /** One bulk change's revisions, each an entry of its own (a grouped entry opened). */
    batch: z.string().max(200).optional(),
  })
  .strip();

/** What an entry says happened, beyond the bare revision action. */
export function feedKind(type: string, action: string, changes: Record<string, [unknown, unknown]> | null): FeedKind {
  if (
    type === 'task' &&
    action === 'updated' &&
    changes?.completed_at &&
    !changes.completed_at[0] &&
    changes.completed_at[1]
  )
    return 'task-completed';
  if (type === 'note' && (action === 'created' || action === 'imported')) return 'note-added';
  if (type === 'import' && action === 'updated' && ['complete', 'failed'].includes(String(changes?.status?.[1])))
    return 'import-finished';
  return action as FeedKind;
}

/**
 * Revisions of records that lie in a region: what the access policy's turf rule reaches from its sites (the sites in
 * it, their contractors and contacts, the visits, notes, tasks, recruits and grievances on them...).
 */
async function inRegion(ctx: AppContext, regionId: number): Promise<RawBuilder<boolean>> {
  const parts: RawBuilder<boolean>[] = [];
  for (const def of ctx.resources.all()) {
    const inside = await ctx.records.access.inRegions(def, [regionId]);
    if (inside === false) continue;
    const where = inside === true ? sql<boolean>`true` : inside;
    parts.push(
      sql<boolean>`(r.revisionable_type = ${def.type} and exists (select 1 from ${sql.table(def.table)} t where t.id = r.revisionable_id and ${where}))`,
    );
  }
  return parts.length ? sql<boolean>`(${sql.join(parts, sql` or `)})` : sql<boolean>`false`;
}

/** How many of the newest single revisions a page is first looked for among (see `activityFeed`). */
const NEWEST_SINGLES = 500;

/** The oldest id and the record types of the newest single revisions (older than `before`); null when there are none. */
async function newestSingles(ctx: AppContext, before?: number): Promise<{ from: number; types: Set<string> } | null> {
  const { rows } = await sql<{ from: number | null; types: string[] | null }>`
    select min(w.id) as "from", array_agg(distinct w.revisionable_type) as types
    from (select id, revisionable_type from revisions where batch_key is null
      ${before ? sql`and id < ${before}` : sql``} order by id desc limit ${NEWEST_SINGLES}) w`.execute(ctx.db);
  const [found] = rows;
  return found?.from == null ? null : { from: Number(found.from), types: new Set(found.types ?? []) };
}

const labelOf = (row: Record<string, any>) => {
  const person = [row.first_name, row.last_name].filter(Boolean).join(' ');
  const text = row.name ?? row.title ?? (person || null) ?? row.file_name ?? row.slug ?? null;
  if (text) return String(text);
  if (row.body) return String(row.body).length > 80 ? `${String(row.body).slice(0, 77)}…` : String(row.body);
  return `#${row.id}`;
};

/**
 * GET /api/actions: the activity feed (docs/reports.md "Activity"), newest first, built on the revisions every write
 * leaves. What the person may not read never appears (the same rule as the history), nor the actions of users with
 * an incognito role unless the person holds `revision:read:incognito`. Filters: person, record type, action, region,
 * dates. A bulk change (an import, its undo, a region upload or Census load: the revisions of one `batch_key`) is one
 * entry with `group` (its counts by record type), placed at its newest revision; `batch` lists one such change's
 * revisions instead. Paging by `before` (an entry id); `meta.next_before` is the cursor of the next page.
 */
export async function activityFeed(ctx: AppContext, user: AuthUser, params: z.infer<typeof feedQuery>) {
  const region = params.region_id ? await inRegion(ctx, params.region_id) : null;
  /**
   * The revisions the person may see that match the filters; `forEachRow`: checked one by one (a walk by id), else in
   * bulk (a count); `types`: of these types only (see `newestSingles`).
   */
  const revisions = async (forEachRow: boolean, types?: ReadonlySet<string>) => {
    let matching = ctx.db
      .selectFrom('revisions as r')
      .where(await revisionVisibility(ctx, user, 'r', { forEachRow, types }));
    if (params.user_id) matching = matching.where('r.user_id', '=', params.user_id);
    if (params.type?.length) {
      const types = params.type.map((t) => String(t)).map((t) => ctx.resources.get(t)?.type ?? t);
      matching = matching.where('r.revisionable_type', 'in', types);
    }
    if (params.action?.length) matching = matching.where('r.action', 'in', params.action);
    if (region) matching = matching.where(region);
    if (params.from || params.to)
      matching = matching.where(rangeCondition('r.created_at', { from: params.from, to: params.to }));
    return matching;
  };

  // Revisions of their own (or of the one batch asked for), and bulk changes as one entry each: the newest of both.
  const ownRows = (matching: Awaited<ReturnType<typeof revisions>>) => {
    let own = params.batch
      ? matching.where('r.batch_key', '=', params.batch)
      : matching.where('r.batch_key', 'is', null);
    if (params.before) own = own.where('r.id', '<', params.before);
    if (params.after !== undefined) own = own.where('r.id', '>', params.after);
    return own
      .leftJoin('users as u', 'u.id', 'r.user_id')
      .select([...REVISION_COLUMNS, 'r.created_at', 'u.first_name', 'u.last_name'])
      .orderBy('r.id', 'desc')
      .limit(params.per_page + 1)
      .execute();
  };
  /** The revisions of every type, for a page the newest do not fill and for the bulk changes: built once. */
  let everyType: ReturnType<typeof revisions> | undefined;
  const ofEveryType = () => (everyType ??= revisions(true));
  // A page is most often filled from the newest single revisions: read among those alone, its statement holds the
  // rules of their few types rather than every type's. A page they do not fill is read again among all.
  const newest = params.batch || params.after !== undefined ? null : await newestSingles(ctx, params.before);
  let rows = newest ? await ownRows((await revisions(true, newest.types)).where('r.id', '>=', newest.from)) : [];
  if (rows.length <= params.per_page) rows = await ownRows(await ofEveryType());
  await ctx.records.access.maskRevisions(user, rows);
  // A full page ends at its (per_page + 1)th entry: a bulk change placed below it is on a later page.
  const pageEnd = rows.length > params.per_page ? Number(rows[params.per_page].id) : null;
  const heads =
    params.batch || (pageEnd !== null && !(await batchNewerThan(ctx, pageEnd, params.before)))
      ? []
      : await batchHeads(ctx, await ofEveryType(), { before: params.before, after: params.after }, params.per_page + 1);
  const merged = [
    ...rows.map((row) => ({ id: Number(row.id), row, head: null })),
    ...heads.map((head) => ({ id: head.id, row: null, head })),
  ]
    .sort((a, b) => b.id - a.id)
    .slice(0, params.per_page + 1);
  const hasMore = merged.length > params.per_page;
  const shown = merged.slice(0, params.per_page);
  const page = shown.flatMap((entry) => (entry.row ? [entry.row] : []));
  const batchKeys = shown.flatMap((entry) => (entry.head ? [entry.head.batch_key] : []));
  const batches = await summarizeBatches(ctx, user, batchKeys.length ? await revisions(false) : null, batchKeys);
  const names = await userNames(
    ctx,
    [...batches.values()].map((b) => b.user_id),
  );

  // The records' names and parents, one query per record type on the page.
  const byType = new Map<string, number[]>();
  for (const row of page)
    byType.set(row.revisionable_type, [...(byType.get(row.revisionable_type) ?? []), row.revisionable_id]);
  const records = new Map<string, Record<string, any>>();
  const typeNames = new Map<string, { name: string; resource: string }>();
  for (const [type, ids] of byType) {
    const def = ctx.resources.byType(type);
    if (!def) continue;
    typeNames.set(type, { name: await ctx.records.nameOf(def), resource: def.name });
    const found = await dynamicTables(ctx.db)
      .selectFrom(def.table)
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
    for (const record of found) records.set(`${type}:${record.id}`, record);
  }
  // Parents (the record a note or task is on), named only when the person may read them.
  const parents = new Map<string, number[]>();
  for (const record of records.values()) {
    const parentType = record.notable_type ?? record.taskable_type;
    const parentId = record.notable_id ?? record.taskable_id;
    if (parentType && parentId) parents.set(parentType, [...(parents.get(parentType) ?? []), parentId]);
  }
  const parentLabels = new Map<string, string>();
  for (const [type, ids] of parents) {
    const def = ctx.resources.byType(type);
    if (!def || !can(user, `${def.permission ?? def.type}:read`, true)) continue;
    const found = await (await ctx.records.visibleRows(ctx.db, def, user, 'with'))
      .selectAll('t')
      .where('t.id', 'in', [...new Set(ids)])
      .execute();
    for (const record of found) parentLabels.set(`${type}:${record.id}`, labelOf(record));
  }
  const showChanges = can(user, 'revision:read');
  const entryOf = (row: (typeof page)[number]) => {
    const record = records.get(`${row.revisionable_type}:${row.revisionable_id}`);
    const typeName = typeNames.get(row.revisionable_type);
    const changes = (row.changes ?? {}) as Record<string, [unknown, unknown]>;
    let link = typeName ? `/${typeName.resource}/${row.revisionable_id}/show` : null;
    let parent: { type: string; id: number; label: string; link: string | null } | null = null;
    const parentType = record?.notable_type ?? record?.taskable_type ?? null;
    const parentId = record?.notable_id ?? record?.taskable_id ?? null;
    if (parentType && parentId) {
      const parentDef = ctx.resources.byType(parentType);
      const label = parentLabels.get(`${parentType}:${parentId}`) ?? null;
      parent =
        label === null
          ? null
          : { type: parentType, id: parentId, label, link: parentDef ? `/${parentDef.name}/${parentId}/show` : null };
      if (row.revisionable_type === 'note' && parent?.link) link = parent.link;
    }
    return {
      id: Number(row.id),
      kind: feedKind(row.revisionable_type, row.action, changes),
      action: row.action,
      type: row.revisionable_type,
      type_name: typeName?.name ?? row.revisionable_type,
      resource: typeName?.resource ?? null,
      record_id: row.revisionable_id,
      // A record removed for good is named by the values its revisions kept.
      record_label: record
        ? labelOf(record)
        : labelOf({
            id: row.revisionable_id,
            ...Object.fromEntries(Object.entries(changes).map(([key, [before, after]]) => [key, after ?? before])),
          }),
      record_deleted: record ? Boolean(record.deleted_at) : true,
      link,
      parent,
      user: row.user_id ? { id: row.user_id, name: `${row.first_name ?? ''} ${row.last_name ?? ''}`.trim() } : null,
      fields: Object.keys(changes).filter((k) => k !== 'password'),
      changes: showChanges ? changes : undefined,
      import_id: row.import_id,
      group: null,
      created_at: row.created_at,
    };
  };
  const data = shown.map((entry) =>
    entry.row ? entryOf(entry.row) : grouped(entry.id, batches.get(entry.head!.batch_key)!, names),
  );
  return {
    data,
    meta: {
      per_page: params.per_page,
      has_more: hasMore,
      next_before: hasMore ? data[data.length - 1].id : null,
      newest: data[0]?.id ?? null,
    },
  };
}

/** A bulk change as one entry: named by its largest part, linking to its import or to the list of what it wrote. */
function grouped(id: number, batch: BatchSummary, names: Map<number, string>) {
  const main = batch.parts[0];
  return {
    id,
    kind: feedKind(main.type, main.action, null),
    action: main.action,
    type: main.type,
    type_name: main.type_name,
    resource: main.resource,
    record_id: null,
    record_label: batch.import?.name ?? null,
    record_deleted: false,
    link: batch.import?.link ?? (main.resource ? `/${main.resource}` : null),
    parent: null,
    user: batch.user_id ? { id: batch.user_id, name: names.get(batch.user_id) ?? '' } : null,
    fields: [],
    import_id: batch.import?.id ?? null,
    group: { key: batch.key, count: batch.count, parts: batch.parts, undo: batch.undo, first_at: batch.first_at },
    created_at: batch.last_at,
  };
}

async function userNames(ctx: AppContext, ids: Array<number | null>) {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  const rows = wanted.length
    ? await ctx.db.selectFrom('users').select(['id', 'first_name', 'last_name']).where('id', 'in', wanted).execute()
    : [];
  return new Map(rows.map((u) => [u.id as number, `${u.first_name ?? ''} ${u.last_name ?? ''}`.trim()]));
}

const feedEntry = z.object({
  id: z.number().int(),
  kind: z.enum([
    'created',
    'updated',
    'deleted',
    'restored',
    'imported',
    'note-added',
    'task-completed',
    'import-finished',
  ]),
  action: z.string(),
  type: z.string(),
  type_name: z.string(),
  resource: z.string().nullable(),
  record_id: z.number().int().nullable(),
  record_label: z.string().nullable(),
  record_deleted: z.boolean(),
  link: z.string().nullable(),
  parent: z
    .object({ type: z.string(), id: z.number().int(), label: z.string(), link: z.string().nullable() })
    .nullable(),
  user: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  fields: z.array(z.string()),
  /** Each field's [before, after], for those who may read the history (revision:read). */
  changes: z.record(z.string(), z.unknown()).optional(),
  import_id: z.number().int().nullable(),
  group: z
    .object({
      key: z.string(),
      count: z.number().int(),
      parts: z.array(
        z.object({
          type: z.string(),
          type_name: z.string(),
          type_plural: z.string(),
          resource: z.string().nullable(),
          action: z.string(),
          count: z.number().int(),
        }),
      ),
      undo: z.boolean(),
      first_at: timestamp,
    })
    .nullable(),
  created_at: timestamp,
});

/** GET /api/actions: a page of the feed and where the next begins. */
export const feedAnswer = z.object({
  data: z.array(feedEntry),
  meta: z.object({
    per_page: z.number().int(),
    has_more: z.boolean(),
    next_before: z.number().int().nullable(),
    newest: z.number().int().nullable(),
  }),
});
