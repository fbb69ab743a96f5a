import { type SelectQueryBuilder, sql } from 'kysely';
import type { FeedBatchPart } from '../../common/report-types.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { canRead } from '../reports/scope.js';
import { schemaStore } from '../schemas/schema-store.js';

/**
 * Bulk changes in the activity feed: the revisions of one batch (`revisions.batch_key`: an import, the undo of an
 * import, a region upload or Census load) make one entry, placed at the batch's newest revision the person may see.
 */

export interface BatchHead {
  batch_key: string;
  /** The newest revision of the batch that the person may see and that matches the filters. */
  id: number;
}

export interface BatchSummary {
  key: string;
  count: number;
  parts: FeedBatchPart[];
  user_id: number | null;
  first_at: Date;
  last_at: Date;
  /** The import that wrote the batch (or whose undo it is), when the person may read it. */
  import: { id: number; name: string; link: string } | null;
  undo: boolean;
}

type Matching = SelectQueryBuilder<any, 'r', any>;

/**
 * The newest `limit` batches among the revisions `matching` lets through, newest first, with the cursor applied to
 * each batch's newest revision (so a batch is on exactly one page). The batch keys are walked in their index (one
 * probe per batch, however many revisions each holds), and each batch's newest matching revision is found by its
 * (batch_key, id) index.
 */
export async function batchHeads(
  ctx: AppContext,
  matching: Matching,
  cursor: { before?: number; after?: number },
  limit: number,
): Promise<BatchHead[]> {
  const newest = matching.select('r.id').where(sql<boolean>`r.batch_key = keys.k`).orderBy('r.id', 'desc').limit(1);
  const result = await sql<{ batch_key: string; id: string | number }>`
    with recursive keys(k) as (
      (select batch_key from revisions where batch_key is not null order by batch_key limit 1)
      union all
      select (select n.batch_key from revisions n where n.batch_key > keys.k order by n.batch_key limit 1) from keys where keys.k is not null
    )
    select keys.k as batch_key, head.id from keys cross join lateral (${newest}) head
    where keys.k is not null
      ${cursor.before ? sql`and head.id < ${cursor.before}` : sql``}
      ${cursor.after !== undefined ? sql`and head.id > ${cursor.after}` : sql``}
    order by head.id desc
    limit ${limit}`.execute(ctx.db);
  return result.rows.map((row) => ({ batch_key: row.batch_key, id: Number(row.id) }));
}

/**
 * Whether any bulk change has a revision newer than `id` (and older than `before`): a page whose last entry is `id`
 * shows no bulk change otherwise, since a bulk change is placed at its newest revision the person may see.
 */
export async function batchNewerThan(ctx: AppContext, id: number, before?: number): Promise<boolean> {
  let newer = ctx.db.selectFrom('revisions').select('id').where('batch_key', 'is not', null).where('id', '>', id);
  if (before) newer = newer.where('id', '<', before);
  return (await newer.limit(1).executeTakeFirst()) !== undefined;
}

/** What each batch holds (by record type and action) among the revisions `matching` lets through. */
export async function summarizeBatches(
  ctx: AppContext,
  user: AuthUser,
  matching: Matching | null,
  keys: string[],
): Promise<Map<string, BatchSummary>> {
  const out = new Map<string, BatchSummary>();
  if (keys.length === 0 || !matching) return out;
  const rows = await matching
    .where('r.batch_key', 'in', keys)
    .select([
      'r.batch_key',
      'r.revisionable_type',
      'r.action',
      'r.user_id',
      sql<number>`count(*)::int`.as('count'),
      sql<Date>`min(r.created_at)`.as('first_at'),
      sql<Date>`max(r.created_at)`.as('last_at'),
    ])
    .groupBy(['r.batch_key', 'r.revisionable_type', 'r.action', 'r.user_id'])
    .orderBy(sql`count(*)`, 'desc')
    .execute();

  const plurals = new Map((await schemaStore(ctx.db).snapshot()).byType);
  const imports = await readableImports(ctx, user, keys);
  for (const row of rows) {
    const def = ctx.resources.byType(row.revisionable_type);
    const name = def ? await ctx.records.nameOf(def) : row.revisionable_type;
    const part: FeedBatchPart = {
      type: row.revisionable_type,
      type_name: name,
      type_plural:
        plurals.get(row.revisionable_type)?.name_plural ?? (def ? humanise(def.name) : row.revisionable_type),
      resource: def?.name ?? null,
      action: row.action,
      count: row.count,
    };
    const first = new Date(row.first_at);
    const last = new Date(row.last_at);
    let summary = out.get(row.batch_key);
    if (!summary) {
      const importId = importOf(row.batch_key);
      summary = {
        key: row.batch_key,
        count: 0,
        parts: [],
        user_id: row.user_id,
        first_at: first,
        last_at: last,
        import: importId ? (imports.get(importId) ?? null) : null,
        undo: row.batch_key.startsWith('import-undo:'),
      };
      out.set(row.batch_key, summary);
    }
    const same = summary.parts.find((p) => p.type === part.type && p.action === part.action);
    if (same) same.count += part.count;
    else summary.parts.push(part);
    summary.count += part.count;
    if (first < summary.first_at) summary.first_at = first;
    if (last > summary.last_at) summary.last_at = last;
  }
  for (const summary of out.values()) summary.parts.sort((a, b) => b.count - a.count);
  return out;
}

/** The import a batch key names (`import:12`, `import-undo:12`), or null. */
function importOf(key: string): number | null {
  const match = /^import(?:-undo)?:(\d+)$/.exec(key);
  return match ? Number(match[1]) : null;
}

/** Names and links of the imports behind these batches that the person may read. */
async function readableImports(ctx: AppContext, user: AuthUser, keys: string[]) {
  const out = new Map<number, { id: number; name: string; link: string }>();
  const ids = [...new Set(keys.map(importOf).filter((id): id is number => id !== null))];
  const def = ctx.resources.get('imports');
  if (!ids.length || !def || !canRead(user, def)) return out;
  const rows = await (await ctx.records.visibleRows(ctx.db, def, user, 'with'))
    .select(['t.id', 't.name'])
    .where('t.id', 'in', ids)
    .execute();
  for (const row of rows)
    out.set(Number(row.id), { id: Number(row.id), name: row.name as string, link: `/${def.name}/${row.id}/show` });
  return out;
}

const humanise = (slug: string) => slug.replace(/[-_]/g, ' ');
