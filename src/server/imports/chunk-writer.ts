import { type Kysely, sql, type Transaction } from 'kysely';
import { normalise } from '../../common/import-values.js';
import type { AuthUser } from '../auth/auth-user.js';
import { countMarketShareOnce } from '../db/market-share-once.js';
import type { DB } from '../db/schema.generated.js';
import { type BatchRow, batchFields, type FieldsCache } from '../records/batch-writer.js';
import type { RecordService } from '../records/record-service.js';
import type { ResourceRegistry } from '../records/registry.js';
import type { ResourceDefinition } from '../records/resource.js';
import { phase, phaseSync } from '../records/write-phases.js';
import type { StoredFile } from './import-files.js';
import type { ImportCounts as Counts, ImportFailure as Failure } from './import-service.js';
import { type ImporterConfig, keyFieldOf, type MappedRow, type Mapper, newRecordDefaults } from './mapper.js';
import { pivotField } from './record-types.js';
import { contactKey, contractorKey, RelatedResolver, type Resolved } from './related.js';
import { relationNames } from './relation-names.js';
import type { RowHashes } from './row-hashes.js';

/** A data record of the file, not yet mapped. */
export interface RawRow {
  cells: string[];
  line: number;
  index: number;
}

/** A chunk of a file's data records with the mapper for its headers (processor.ts chunks). */
export interface FileChunk {
  mapper: Mapper;
  headers: readonly string[];
  rows: RawRow[];
  /** The checkpoint after the chunk: the next data record to read. */
  nextRow: number;
  /** Data records in the chunk, blank ones included. */
  records: number;
}

/** The content hashes of a chunk's rows, and the positions of those the file brings again unchanged (RowHashes.unchanged). */
export interface UnchangedRows {
  contentHashes: string[];
  unchanged: Set<number>;
}

export async function unchangedRows(
  db: Kysely<DB>,
  chunk: FileChunk,
  hashes: RowHashes | null,
): Promise<UnchangedRows> {
  const contentHashes = hashes ? chunk.rows.map((raw) => hashes.contentHash(chunk.headers, raw.cells)) : [];
  const unchanged = hashes
    ? await phase('unchanged rows', () => hashes.unchanged(db, contentHashes))
    : new Set<number>();
  return { contentHashes, unchanged };
}

/**
 * The chunk's rows mapped, but for those imported before with the same cells into records unchanged since (`hashes`):
 * those are only counted (`skipped`). Where a key comes both in such a row and in a row to write, both are written in
 * file order, so the file's last row of a key wins as it always does.
 */
export async function rowsToWrite(
  trx: Transaction<DB>,
  chunk: FileChunk,
  hashes: RowHashes | null,
  found?: UnchangedRows,
): Promise<{ rows: MappedRow[]; skipped: number }> {
  const { contentHashes, unchanged } = found ?? (await unchangedRows(trx, chunk, hashes));
  const map = (i: number) => {
    const raw = chunk.rows[i];
    const row = phaseSync('map', () => chunk.mapper.map(raw.cells, raw.line, raw.index));
    row.raw = raw.cells;
    if (hashes) row.contentHash = contentHashes[i];
    return row;
  };
  // In file order, a gap where a row is set aside.
  const mapped = chunk.rows.map((_, i) => (unchanged.has(i) ? undefined : map(i)));
  if (unchanged.size && hashes && unchanged.size < chunk.rows.length) {
    const keys = new Set(mapped.flatMap((row) => (row ? [hashes.keyOf(row)] : [])));
    const keyByHash = await phase('unchanged rows', () =>
      hashes.keysOf(
        trx,
        [...unchanged].map((i) => contentHashes[i]),
      ),
    );
    for (const i of [...unchanged]) {
      const key = keyByHash.get(contentHashes[i]);
      if (key === undefined || !keys.has(key)) continue;
      unchanged.delete(i);
      mapped[i] = map(i);
    }
  }
  return { rows: mapped.filter((row): row is MappedRow => row !== undefined), skipped: unchanged.size };
}

/**
 * One chunk of an import, in the chunk's transaction: its rows mapped (rowsToWrite: rows imported before into records
 * nobody changed since are counted as skipped and not read further), the related records they name (found, or
 * created when the importer allows), then the records themselves through the data service's batch path, then the
 * links between them. Returns the chunk's counts and its failed rows with their reasons.
 */
export async function writeChunk(
  records: RecordService,
  resources: ResourceRegistry,
  trx: Transaction<DB>,
  importId: number,
  user: AuthUser,
  def: ResourceDefinition,
  importer: ImporterConfig,
  file: StoredFile,
  chunk: FileChunk,
  fieldsCache: FieldsCache,
  hashes: RowHashes | null,
  found?: UnchangedRows,
) {
  const counts: Counts = { created: 0, updated: 0, skipped: 0, failed: 0 };
  const failures: Failure[] = [];
  const failRow = (row: MappedRow, reason: string) => {
    counts.failed++;
    failures.push({ file_name: file.name, line: row.line, reason, data: rawOf(row) });
  };
  const { rows, skipped } = await rowsToWrite(trx, chunk, hashes, found);
  counts.skipped += skipped;
  // A chunk of a file imported again, every row unchanged: nothing to look up or write.
  if (!rows.length) return { counts, failures };
  // The market share of the chunk's sites counted once, after its related records, records and links alike.
  // ('market share' is the counting itself: the writes inside are timed as 'chunk' and their own phases.)
  await phase('market share', () =>
    countMarketShareOnce(trx, () =>
      phase('chunk', () =>
        writeRows(records, resources, trx, importId, user, def, importer, rows, fieldsCache, hashes, counts, failRow),
      ),
    ),
  );
  return { counts, failures };
}

/** The chunk's rows to write: related records, the records, their links, the rows' hashes. */
async function writeRows(
  records: RecordService,
  resources: ResourceRegistry,
  trx: Transaction<DB>,
  importId: number,
  user: AuthUser,
  def: ResourceDefinition,
  importer: ImporterConfig,
  rows: MappedRow[],
  fieldsCache: FieldsCache,
  hashes: RowHashes | null,
  counts: Counts,
  failRow: (row: MappedRow, reason: string) => void,
) {
  const live: MappedRow[] = [];
  for (const row of rows) {
    if (row.blank) continue;
    if (row.errors.length) failRow(row, row.errors.join(' '));
    else live.push(row);
  }

  const { trades, statuses, unions, classifications, contractors, contacts, typeBySlug, fields, tradeField, type } =
    await phase('related', async () => {
      const related = new RelatedResolver(
        records,
        resources,
        trx,
        user,
        importId,
        importer.create_related,
        fieldsCache,
      );
      const fields = await batchFields(records, def, trx, fieldsCache);
      const type = importer.record_type;
      const tradeField =
        type === 'site'
          ? pivotField(fields, 'site_trades')
          : type === 'contractor'
            ? pivotField(fields, 'contractor_trades')
            : null;
      const collect = (pick: (row: MappedRow) => string | string[] | undefined) =>
        live.flatMap((row) => [pick(row) ?? []].flat());
      const trades = await related.byName(
        'trade',
        collect((row) => (tradeField ? row.trades : row.craft)),
      );
      const statuses = fields.site_status_id
        ? await related.byName(
            'site-status',
            collect((row) => row.status),
          )
        : new Map<string, Resolved>();
      const unions = fields.union_id
        ? await related.byName(
            'union',
            collect((row) => row.union),
          )
        : new Map<string, Resolved>();
      const classifications = fields.classification_id
        ? await related.byName(
            'classification',
            collect((row) => row.classification),
          )
        : new Map<string, Resolved>();
      const contractors =
        type !== 'contractor'
          ? await related.contractors(
              live.flatMap((row) => (row.contractor ? [row.contractor] : [])),
              type === 'site' ? 'general' : 'none',
            )
          : new Map<string, Resolved>();
      const contacts =
        type !== 'member' ? await related.contacts(live.flatMap((row) => row.contacts)) : new Map<string, Resolved>();

      // Site types by slug or by name ('New Projects' → new-project).
      const siteTypes =
        type === 'site' && fields.type
          ? await trx.selectFrom('site_types').select(['slug', 'name']).where('deleted_at', 'is', null).execute()
          : [];
      const typeBySlug = new Map<string, string>();
      for (const t of siteTypes) {
        if (!t.slug) continue;
        typeBySlug.set(t.slug, t.slug);
        typeBySlug.set(slugOf(t.name), t.slug);
      }
      return { trades, statuses, unions, classifications, contractors, contacts, typeBySlug, fields, tradeField, type };
    });

  const names = await phase('relation names', () =>
    relationNames(
      trx,
      resources,
      fields,
      live.map((row) => row.values),
    ),
  );
  const batch: Array<{ row: MappedRow; values: Record<string, unknown> }> = [];
  for (const row of live) {
    const values = { ...row.values };
    if (typeof values.type === 'string' && typeBySlug.size)
      values.type = typeBySlug.get(values.type) ?? typeBySlug.get(slugOf(values.type)) ?? values.type;
    const problems: string[] = names.resolve(values);
    const use = (found: Resolved | undefined, assign: (id: number) => void) => {
      if (!found) return;
      if ('error' in found) problems.push(found.error);
      else assign(found.id);
    };
    if (tradeField && row.trades.length) {
      const ids: number[] = [];
      for (const name of row.trades) use(trades.get(name.toLowerCase()), (id) => ids.push(id));
      values[tradeField] = ids;
    }
    if (type === 'member' && row.craft && fields.trade_id)
      use(trades.get(row.craft.toLowerCase()), (id) => (values.trade_id = id));
    if (row.status) use(statuses.get(row.status.toLowerCase()), (id) => (values.site_status_id = id));
    if (row.union) use(unions.get(row.union.toLowerCase()), (id) => (values.union_id = id));
    if (row.classification)
      use(classifications.get(row.classification.toLowerCase()), (id) => (values.classification_id = id));
    if (row.contractor) {
      const field = type === 'site' ? 'general_contractor_id' : 'contractor_id';
      use(contractors.get(contractorKey(row.contractor)), (id) => {
        if (fields[field]) values[field] = id;
        (row as MappedRow & { contractorId?: number }).contractorId = id;
      });
    }
    for (const contact of row.contacts) use(contacts.get(contactKey(contact)), () => {});
    if (problems.length) failRow(row, problems.join(' '));
    else batch.push({ row, values });
  }

  const keyField = keyFieldOf(importer);
  const outcomes = await records.importBatch(
    trx,
    user,
    def,
    batch.map((b): BatchRow => ({ values: b.values })),
    {
      importId,
      fieldsCache,
      keyField: keyField && keyField in fields ? keyField : null,
      protectedFields: importer.protected_fields,
      createDefaults: newRecordDefaults(importer, type),
    },
  );

  const written: Array<{ row: MappedRow; id: number }> = [];
  const siteContacts: Array<{ site_id: number; contact_id: number; is_site_contact: boolean }> = [];
  const siteContractors: Array<{ site_id: number; contractor_id: number }> = [];
  const contractorContacts: Array<{ contractor_id: number; contact_id: number }> = [];
  outcomes.forEach((outcome, i) => {
    const { row } = batch[i];
    if (outcome.outcome === 'failed') return failRow(row, outcome.reason ?? 'The row could not be saved.');
    counts[outcome.outcome]++;
    if (!outcome.id) return;
    written.push({ row, id: outcome.id });
    for (const contact of row.contacts) {
      const found = contacts.get(contactKey(contact));
      if (!found || !('id' in found)) continue;
      if (type === 'site')
        siteContacts.push({ site_id: outcome.id, contact_id: found.id, is_site_contact: row.isSiteContact });
      if (type === 'contractor') contractorContacts.push({ contractor_id: outcome.id, contact_id: found.id });
    }
    const contractorId = (row as MappedRow & { contractorId?: number }).contractorId;
    if (type === 'site' && contractorId) siteContractors.push({ site_id: outcome.id, contractor_id: contractorId });
  });
  await phase('links', () => linkRows(trx, siteContacts, siteContractors, contractorContacts));
  if (hashes) await phase('unchanged rows', () => hashes.remember(trx, written));
}

async function linkRows(
  trx: Transaction<DB>,
  siteContacts: Array<{ site_id: number; contact_id: number; is_site_contact: boolean }>,
  siteContractors: Array<{ site_id: number; contractor_id: number }>,
  contractorContacts: Array<{ contractor_id: number; contact_id: number }>,
) {
  const unique = <T>(rows: T[], key: (row: T) => string) => [...new Map(rows.map((row) => [key(row), row])).values()];
  if (siteContacts.length) {
    await sql`insert into site_contacts (site_id, contact_id, is_site_contact)
      select site_id, contact_id, is_site_contact from json_to_recordset(${JSON.stringify(unique(siteContacts, (r) => `${r.site_id}:${r.contact_id}`))}::json)
      as x(site_id integer, contact_id integer, is_site_contact boolean)
      on conflict (site_id, contact_id) do update set is_site_contact = excluded.is_site_contact`.execute(trx);
  }
  if (siteContractors.length) {
    await sql`insert into site_contractors (site_id, contractor_id)
      select distinct x.site_id, x.contractor_id from json_to_recordset(${JSON.stringify(siteContractors)}::json) as x(site_id integer, contractor_id integer)
      where not exists (select 1 from site_contractors s where s.site_id = x.site_id and s.contractor_id = x.contractor_id)`.execute(
      trx,
    );
  }
  if (contractorContacts.length) {
    await sql`insert into contractor_contacts (contractor_id, contact_id)
      select contractor_id, contact_id from json_to_recordset(${JSON.stringify(unique(contractorContacts, (r) => `${r.contractor_id}:${r.contact_id}`))}::json)
      as x(contractor_id integer, contact_id integer)
      on conflict do nothing`.execute(trx);
  }
}

const slugOf = (text: string) => normalise(text).replace(/\s+/g, '-');

function rawOf(row: MappedRow): Record<string, string> | null {
  const { raw } = row;
  return raw ? ({ cells: raw.slice(0, 60).map((c) => c.slice(0, 500)) } as unknown as Record<string, string>) : null;
}
