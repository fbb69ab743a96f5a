import { createHash, type Hash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { FieldSpec, ResourceDefinition } from '../records/resource.js';
import { keyReader } from '../records/batch-writer.js';
import { tableColumnTypes } from '../records/recordset.js';
import type { ImporterConfig, MappedRow } from './mapper.js';

/** Tables whose rows change what a mapped row becomes on write (custom fields, form logic, site types). */
const WRITE_RULE_TABLES = ['schemas', 'schema_fields', 'logic_blocks', 'logic_conditions', 'logic_actions', 'site_types'];

/**
 * Which rows of a file need no work because the import wrote or matched them before and nothing changed since: the
 * row's cells (with the file's headers) hash to what `import_row_hashes` holds, and the record it went to is live
 * with the `updated_at` it had then (nobody edited it, no undo put it back). Such rows are not even mapped. The hash
 * covers the importer's settings and the write rules (custom fields, form logic, site types), so a changed importer
 * or rule sends every row through the write path again. Rows without a key are always written.
 */
export class RowHashes {
  private constructor(
    private readonly def: ResourceDefinition,
    private readonly keyField: string,
    private readonly keyReader: (values: Record<string, unknown>) => string | null,
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

  /**
   * The hash of a row's cells under the file's headers: what the row maps to, without mapping it. The salt and the
   * headers are hashed once per file, each row's hash continuing from a copy of that state.
   */
  contentHash(headers: readonly string[], cells: readonly string[]): string {
    if (this.prefix?.headers !== headers) this.prefix = { headers, hash: createHash('sha1').update(this.salt).update(JSON.stringify(headers)) };
    return this.prefix.hash.copy().update(JSON.stringify(cells)).digest('base64');
  }
  private prefix: { headers: readonly string[]; hash: Hash } | null = null;

  /** A mapped row's key in the table (`external_id:B-1042`); null when it has none. */
  keyOf(row: MappedRow): string | null {
    const key = this.keyReader(row.values);
    return key === null ? null : `${this.keyField}:${key}`;
  }

  /**
   * Of rows with these content hashes (in order), those to skip: imported before with the same cells, into a record
   * unchanged since. Returns each such row's position with its key.
   */
  async unchanged(trx: Transaction<any>, hashes: readonly string[]): Promise<Map<number, string>> {
    const skip = new Map<number, string>();
    if (!hashes.length) return skip;
    const { def } = this;
    const live = def.softDelete ? sql`and t.deleted_at is null` : sql``;
    const asked = hashes.map((hash, i) => ({ i, hash }));
    const found = await sql<{ i: number; key: string }>`
      select x.i, h.key from json_to_recordset(${JSON.stringify(asked)}::json) as x(i integer, hash text)
      join import_row_hashes h on h.record_type = ${def.type} and h.content_hash = x.hash
      join ${sql.table(def.table)} t on t.id = h.record_id and t.updated_at = h.record_updated_at ${live}`.execute(trx);
    for (const { i, key } of found.rows) skip.set(Number(i), key);
    return skip;
  }

  /** After the chunk's writes: the rows that went to a record (created, updated or unchanged), with the record's `updated_at` now. */
  async remember(trx: Transaction<any>, written: ReadonlyArray<{ row: MappedRow; id: number }>) {
    const rows = written.flatMap(({ row, id }) => {
      const key = this.keyOf(row);
      return key !== null && row.contentHash ? [{ key, hash: row.contentHash, id }] : [];
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
