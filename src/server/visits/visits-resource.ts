import { type Kysely, sql, type Transaction } from 'kysely';
import { HEAD_COUNT_NUMBERS, type HeadCountRow } from '../../common/head-count.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.generated.js';
import { ValidationError } from '../http/errors.js';
import type { RecordService } from '../records/record-service.js';
import type { ResourceDefinition } from '../records/resource.js';
import { builtinDefinition, builtinType } from '../schemas/builtin-types.js';
import { pivot, schemaBacked } from '../schemas/schema-backed.js';
import { assertOwnerReadable } from '../work/owners.js';

/** A visit's name where records are named (pickers, history, the feed): the day of the visit, as people write it. */
const LABEL = `'Visit on ' || to_char(visited_at at time zone 'UTC', 'Mon FMDD, YYYY')`;

/**
 * Site visits (fields: schemas/visit.json): a site, when, who went (`user_ids`, kept in visit_users), who logged it
 * (`user_id`: the person logging it, unless they may log for others), notes, and the head count: rows by contractor
 * (`head_counts`, kept in visit_head_counts and written with the visit, so the visit's revision holds the rows before
 * and after). A person reads the visits of the sites they may read.
 */
export const visitsResource: ResourceDefinition = schemaBacked(
  builtinType('visit', {
    table: 'visits',
    fields: {
      user_ids: pivot('visit_users', 'visit_id', 'user_id'),
      contact_ids: pivot('visit_contacts', 'visit_id', 'contact_id'),
      recruit_ids: pivot('visit_recruits', 'visit_id', 'recruit_id'),
      head_counts: { storage: 'virtual', filterable: false, sortable: false },
    },
    // The name the server gives a visit (records are named by `title` in the client).
    readOnly: ['title'],
    search: ['notes'],
    defaultSort: { field: 'visited_at', order: 'desc' },
    softDelete: true,
    optionLabel: LABEL,
    hooks: {
      async beforeWrite(values, { trx, user, action, records }) {
        if ('site_id' in values)
          await assertOwnerReadable(records, trx, user, 'site', values.site_id, 'site_id', 'site_id');
        if (action === 'create' && !('user_ids' in values) && user) values.user_ids = [user.id];
        if ('head_counts' in values && values.head_counts === null) values.head_counts = [];
        if (Array.isArray(values.head_counts)) await checkHeadCountReferences(trx, values.head_counts);
        return values;
      },
      async afterWrite(record, { trx, action, values }) {
        if ((action === 'create' || action === 'update') && values && 'head_counts' in values)
          await replaceHeadCounts(trx, [{ id: record.id, rows: values.head_counts }]);
      },
      async afterWriteMany(writes, trx) {
        const withRows = writes.filter((w) => w.ctx.values && 'head_counts' in w.ctx.values);
        if (withRows.length)
          await replaceHeadCounts(
            trx,
            withRows.map((w) => ({ id: w.record.id, rows: w.ctx.values!.head_counts })),
          );
      },
      async present(records, db) {
        const rows = await headCountsOf(
          db,
          records.map((r) => r.id),
        );
        for (const record of records) {
          record.head_counts = rows.get(record.id) ?? [];
          record.title = `Visit on ${dayOf(record.visited_at)}`;
        }
      },
      // A head count row names a contractor and what was counted there, a conversation the person it was with: only
      // rows of contractors, and contacts and recruits, the reader may read.
      async presentFor(records, user, service) {
        const contractors = await readableOf(
          service,
          user,
          'contractor',
          records.flatMap((r) => (r.head_counts ?? []).map((row: HeadCountRow) => row.contractor_id)),
        );
        const contacts = await readableOf(
          service,
          user,
          'contact',
          records.flatMap((r) => r.contact_ids ?? []),
        );
        const recruits = await readableOf(
          service,
          user,
          'recruit',
          records.flatMap((r) => r.recruit_ids ?? []),
        );
        for (const record of records) {
          record.head_counts = (record.head_counts ?? []).filter((row: HeadCountRow) =>
            contractors.has(row.contractor_id),
          );
          if (Array.isArray(record.contact_ids))
            record.contact_ids = record.contact_ids.filter((id: number) => contacts.has(id));
          if (Array.isArray(record.recruit_ids))
            record.recruit_ids = record.recruit_ids.filter((id: number) => recruits.has(id));
        }
      },
    },
  }),
  // "Logged by": the signed-in person unless they hold user:log-for-others.
  { loggedBy: 'user_id' },
);

/** Which of these ids of records of a built-in `type` the person may read (the access policy's read rule). */
async function readableOf(service: RecordService, user: AuthUser, type: string, ids: number[]): Promise<Set<number>> {
  const def = builtinDefinition(type);
  if (!ids.length || !def || !service.access.mayRead(user, def)) return new Set();
  return service.access.admitted(service.db, def, user, ids, 'read', 'without');
}

/** "Nov 20, 2026", as the SQL label writes it. */
function dayOf(value: unknown) {
  const at = value instanceof Date ? value : new Date(String(value ?? ''));
  return Number.isNaN(at.getTime())
    ? ''
    : at.toLocaleDateString('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' });
}

/** The contractors and trades a head count names must exist (422 on `head_counts` otherwise). */
async function checkHeadCountReferences(trx: Transaction<DB>, rows: HeadCountRow[]) {
  const contractorIds = [...new Set(rows.map((row) => row.contractor_id))];
  const tradeIds = [...new Set(rows.flatMap((row) => row.trade_ids ?? []))];
  const contractors = contractorIds.length
    ? await trx
        .selectFrom('contractors')
        .select('id')
        .where('id', 'in', contractorIds)
        .where('deleted_at', 'is', null)
        .execute()
    : [];
  const trades = tradeIds.length
    ? await trx.selectFrom('trades').select('id').where('id', 'in', tradeIds).where('deleted_at', 'is', null).execute()
    : [];
  const missingContractors = contractorIds.filter((id) => !contractors.some((row) => row.id === id));
  const missingTrades = tradeIds.filter((id) => !trades.some((row) => row.id === id));
  const errors: string[] = [];
  if (missingContractors.length)
    errors.push(`The head count names contractors that do not exist (${missingContractors.join(', ')}).`);
  if (missingTrades.length) errors.push(`The head count names trades that do not exist (${missingTrades.join(', ')}).`);
  if (errors.length) throw new ValidationError({ head_counts: errors });
}

/** Replaces the head count rows of some visits. */
async function replaceHeadCounts(trx: Transaction<DB>, visits: Array<{ id: number; rows: HeadCountRow[] | null }>) {
  await trx
    .deleteFrom('visit_head_counts')
    .where(
      'visit_id',
      'in',
      visits.map((v) => v.id),
    )
    .execute();
  const rows = visits.flatMap((visit) =>
    (visit.rows ?? []).map((row, position) => ({
      visit_id: visit.id,
      position,
      contractor_id: row.contractor_id,
      trade_ids: sql<number[]>`${`{${(row.trade_ids ?? []).join(',')}}`}::integer[]`,
      ...Object.fromEntries(HEAD_COUNT_NUMBERS.map((key) => [key, row[key] ?? 0])),
    })),
  );
  for (let i = 0; i < rows.length; i += 2_000)
    await trx
      .insertInto('visit_head_counts')
      .values(rows.slice(i, i + 2_000))
      .execute();
}

/** The head count rows of these visits, in their order, by visit id. */
export async function headCountsOf(db: Kysely<DB>, visitIds: number[]): Promise<Map<number, HeadCountRow[]>> {
  const byVisit = new Map<number, HeadCountRow[]>();
  if (!visitIds.length) return byVisit;
  const rows = await db
    .selectFrom('visit_head_counts')
    .select(['visit_id', 'contractor_id', 'trade_ids', ...HEAD_COUNT_NUMBERS])
    .where('visit_id', 'in', visitIds)
    .orderBy('visit_id')
    .orderBy('position')
    .execute();
  for (const row of rows) {
    const { visit_id, contractor_id, trade_ids, ...counts } = row as any;
    const list = byVisit.get(visit_id) ?? [];
    list.push({
      contractor_id,
      trade_ids: (trade_ids ?? []).map(Number),
      ...Object.fromEntries(HEAD_COUNT_NUMBERS.map((key) => [key, Number(counts[key])])),
    } as HeadCountRow);
    byVisit.set(visit_id, list);
  }
  return byVisit;
}
