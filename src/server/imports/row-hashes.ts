import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { FieldSpec, ResourceDefinition } from '../records/resource.js';
import { keyReader } from '../records/batch-writer.js';
import { tableColumnTypes } from '../records/recordset.js';
import type { ImporterConfig, MappedRow } from './mapper.js';

/** Tables whose rows change what a mapped row becomes on write (custom fields, form logic, site types). */
const WRITE_RULE_TABLES = ['schemas', 'schema_fields', 'logic_blocks', 'logic_conditions', 'logic_actions', 'site_types'];

/**
 * Which rows of a file need no work because the import wrote or matched them before and nothing changed since: the
 * row, as mapped, hashes to what `import_row_hashes` holds for its key, and the record it went to is live with the
 * `updated_at` it had then (nobody edited it, no undo put it back). The hash covers the importer's settings and the
 * write rules (custom fields, form logic, site types), so a changed importer or rule sends every row through the
 * write path again. Rows without a key, and rows whose key comes twice in a chunk, are always written.
 */
export class RowHashes {
  private constructor(
    private readonly def: ResourceDefinition,
    private readonly keyField: string,
    private readonly keyOf: (values: Record<string, unknown>) => string | null,
    private readonly salt: string,
  ) {}

  /** For an import's run; null when its importer matches no key (every row is new). */
  static async forRun(db: Kysely<any>, def: ResourceDefinition, importer: ImporterConfig, keyField: string | null, fields: Record<string, FieldSpec>): Promise<RowHashes | null> {
    if (!keyField || !(keyField in fields) || !(await tableColumnTypes(db, def.table)).has('updated_at')) return null;
    const versions = await sql<{ version: string }>`
      select ${sql.join(WRITE_RULE_TABLES.map((table) => sql`(select count(*) || '/' || coalesce(max(updated_at)::text, '') from ${sql.table(table)})`), sql` || ';' || `)} as version`.execute(db);
    const fieldKinds = Object.entries(fields).map(([name, spec]) => `${name}:${spec.kind}:${(spec.options ?? []).join('|')}`);
    const salt = JSON.stringify([importer, versions.rows[0]?.version ?? '', fieldKinds]);
    return new RowHashes(def, keyField, keyReader(keyField, fields[keyField]), salt);
  }

  /** Each row's entry, worked out once: the chunk writer adds to a row (its contractor's id) after it is looked up. */
  private readonly entries = new WeakMap<MappedRow, { key: string; hash: string } | null>();

  /** The row's key in the table (`external_id:B-1042`) and the hash of what it maps to; null when it has no key. */
  private entry(row: MappedRow) {
    if (this.entries.has(row)) return this.entries.get(row)!;
    const key = this.keyOf(row.values);
    let entry: { key: string; hash: string } | null = null;
    if (key !== null) {
      const content = [row.values, row.trades, row.status, row.union, row.classification, row.craft, row.contractor, row.contacts, row.isSiteContact];
      entry = { key: `${this.keyField}:${key}`, hash: createHash('sha1').update(this.salt).update(JSON.stringify(content)).digest('base64') };
    }
    this.entries.set(row, entry);
    return entry;
  }

  /** Of `rows`, those to skip: the same content as when last imported, into a record unchanged since. */
  async unchanged(trx: Transaction<any>, rows: readonly MappedRow[]): Promise<Set<MappedRow>> {
    const entries = new Map<string, { row: MappedRow; hash: string } | null>();
    for (const row of rows) {
      const entry = this.entry(row);
      if (!entry) continue;
      // A key twice in the chunk: the second row updates what the first wrote, so both go through the write path.
      entries.set(entry.key, entries.has(entry.key) ? null : { row, hash: entry.hash });
    }
    const asked = [...entries].filter(([, entry]) => entry).map(([key, entry]) => ({ key, hash: entry!.hash }));
    const skip = new Set<MappedRow>();
    if (!asked.length) return skip;
    const { def } = this;
    const live = def.softDelete ? sql`and t.deleted_at is null` : sql``;
    const found = await sql<{ key: string }>`
      select x.key from json_to_recordset(${JSON.stringify(asked)}::json) as x(key text, hash text)
      join import_row_hashes h on h.record_type = ${def.type} and h.key = x.key and h.content_hash = x.hash
      join ${sql.table(def.table)} t on t.id = h.record_id and t.updated_at = h.record_updated_at ${live}`.execute(trx);
    for (const { key } of found.rows) skip.add(entries.get(key)!.row);
    return skip;
  }

  /** After the chunk's writes: the rows that went to a record (created, updated or unchanged), with the record's `updated_at` now. */
  async remember(trx: Transaction<any>, written: ReadonlyArray<{ row: MappedRow; id: number }>) {
    const rows = written.flatMap(({ row, id }) => {
      const entry = this.entry(row);
      return entry ? [{ ...entry, id }] : [];
    });
    if (!rows.length) return;
    // The last row of a key wins, as its write does.
    const unique = [...new Map(rows.map((row) => [row.key, row])).values()];
    await sql`insert into import_row_hashes (record_type, key, record_id, content_hash, record_updated_at)
      select ${this.def.type}, x.key, x.id, x.hash, t.updated_at
      from json_to_recordset(${JSON.stringify(unique)}::json) as x(key text, hash text, id integer)
      join ${sql.table(this.def.table)} t on t.id = x.id
      on conflict (record_type, key) do update set record_id = excluded.record_id, content_hash = excluded.content_hash, record_updated_at = excluded.record_updated_at`.execute(trx);
  }
}
