import { createHash, type Hash } from 'node:crypto';
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { DB } from '../db/schema.generated.js';
import { keyReader } from '../records/batch-writer.js';
import { tableColumnTypes } from '../records/recordset.js';
import type { FieldSpec, ResourceDefinition } from '../records/resource.js';
import type { ImporterConfig, MappedRow } from './mapper.js';

/** Kept hashes of a type held per run (about 9 MB of the heap for 100,000); above, each chunk looks its hashes up instead. */
const KNOWN_LIMIT = 200_000;
/** Kept hashes read per query: one JSON value each, small enough not to grow the embedded database's memory. */
const KNOWN_PAGE = 10_000;

/**
 * The kept hashes of a type, compactly: hash → position in `ids` (the record each went to) and `times` (that
 * record's `updated_at` then, in microseconds since 1970: exact as a double until the year 2255).
 */
interface Known {
  positions: Map<string, number>;
  ids: number[];
  times: number[];
}

/** A timestamp as whole microseconds since 1970: compared exactly, whatever the session's time zone. */
const microseconds = (column: RawBuilder<unknown>) => sql<number>`(extract(epoch from ${column}) * 1000000)::bigint`;

/** Tables whose rows change what a mapped row becomes on write (custom fields, form logic, site types). */
const WRITE_RULE_TABLES = [
  'schemas',
  'schema_fields',
  'logic_blocks',
  'logic_conditions',
  'logic_actions',
  'site_types',
];

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
  static async forRun(
    db: Kysely<DB>,
    def: ResourceDefinition,
    importer: ImporterConfig,
    keyField: string | null,
    fields: Record<string, FieldSpec>,
  ): Promise<RowHashes | null> {
    if (!keyField || !(keyField in fields) || !(await tableColumnTypes(db, def.table)).has('updated_at')) return null;
    const versions = await sql<{ version: string }>`
      select ${sql.join(
        WRITE_RULE_TABLES.map(
          (table) => sql`(select count(*) || '/' || coalesce(max(updated_at)::text, '') from ${sql.table(table)})`,
        ),
        sql` || ';' || `,
      )} as version`.execute(db);
    const fieldKinds = Object.entries(fields).map(
      ([name, spec]) => `${name}:${spec.kind}:${(spec.options ?? []).join('|')}`,
    );
    const salt = JSON.stringify([importer, versions.rows[0]?.version ?? '', fieldKinds]);
    return new RowHashes(def, keyField, keyReader(keyField, fields[keyField]), salt);
  }

  /**
   * The hash of a row's cells under the file's headers: what the row maps to, without mapping it. The salt and the
   * headers are hashed once per file, each row's hash continuing from a copy of that state.
   */
  contentHash(headers: readonly string[], cells: readonly string[]): string {
    if (this.prefix?.headers !== headers)
      this.prefix = { headers, hash: createHash('sha1').update(this.salt).update(JSON.stringify(headers)) };
    return this.prefix.hash.copy().update(JSON.stringify(cells)).digest('base64');
  }
  private prefix: { headers: readonly string[]; hash: Hash } | null = null;

  /** A mapped row's key in the table (`external_id:B-1042`); null when it has none. */
  keyOf(row: MappedRow): string | null {
    const key = this.keyReader(row.values);
    return key === null ? null : `${this.keyField}:${key}`;
  }

  /**
   * Of rows with these content hashes (in order), the positions of those to skip: imported before with the same cells,
   * into a record unchanged since.
   *
   * The hashes kept for the type are read once per run (`known`), so a chunk costs one read of its candidates'
   * records, by id range where they were created together, rather than an index probe per row into
   * `import_row_hashes`: looked up row by row, a 100,000-row file spent seconds there. A candidate is skipped only if
   * its record still has the `updated_at` kept with the hash, read when the chunk is written; any write since (a
   * person's edit, an undo, this run's own writes) moves `updated_at`, so a stale candidate is written. The hashes this
   * run keeps are not added to those held (a row repeating an earlier row of the file is written again, and found
   * unchanged by the batch writer).
   */
  async unchanged(trx: Kysely<DB>, hashes: readonly string[]): Promise<Set<number>> {
    const skip = new Set<number>();
    if (!hashes.length) return skip;
    const known = await this.knownHashes(trx);
    if (!known) return this.unchangedByQuery(trx, hashes);
    const candidates = new Map<number, number>();
    hashes.forEach((hash, i) => {
      const position = known.positions.get(hash);
      if (position !== undefined) candidates.set(i, position);
    });
    if (!candidates.size) return skip;
    const current = await this.updatedAt(trx, [...new Set([...candidates.values()].map((p) => known.ids[p]))]);
    for (const [i, p] of candidates) if (current.get(known.ids[p]) === known.times[p]) skip.add(i);
    return skip;
  }

  /** The keys (`external_id:B-1042`) the rows with these content hashes were kept under: hash → key. */
  async keysOf(trx: Kysely<DB>, hashes: readonly string[]): Promise<Map<string, string>> {
    if (!hashes.length) return new Map();
    const { rows } = await sql<{ list: string }>`
      select coalesce(json_agg(json_build_array(content_hash, key)), '[]')::text as list from import_row_hashes
      where record_type = ${this.def.type} and content_hash = any(${[...new Set(hashes)]}::text[])`.execute(trx);
    return new Map(JSON.parse(rows[0].list) as Array<[string, string]>);
  }

  /** The type's kept hashes, read at the first chunk a page at a time; null when there are more than KNOWN_LIMIT. */
  private async knownHashes(db: Kysely<DB>): Promise<Known | null> {
    if (this.known !== undefined) return this.known;
    const known: Known = { positions: new Map(), ids: [], times: [] };
    // In pages of one JSON value each, by key (the table's own index, in about the order the rows were written): the
    // embedded database hands back many rows several times slower than their JSON list.
    for (let after = ''; ; ) {
      const { rows } = await sql<{ list: string; last: string | null; n: number }>`
        select coalesce(json_agg(json_build_array(content_hash, record_id, ${microseconds(sql.ref('record_updated_at'))})), '[]')::text as list,
          max(key) as last, count(*)::int as n
        from (select key, content_hash, record_id, record_updated_at from import_row_hashes
          where record_type = ${this.def.type} and key > ${after} order by key limit ${KNOWN_PAGE}) h`.execute(db);
      for (const [hash, id, time] of JSON.parse(rows[0].list) as Array<[string, number, number]>) {
        known.positions.set(hash, known.ids.length);
        known.ids.push(id);
        known.times.push(time);
      }
      if (known.ids.length > KNOWN_LIMIT) return (this.known = null);
      if (Number(rows[0].n) < KNOWN_PAGE || rows[0].last === null) break;
      after = rows[0].last;
    }
    return (this.known = known);
  }
  private known: Known | null | undefined;

  /** `updated_at` of the live records among `ids`: one range scan when the ids lie close together (records created by one import). */
  private async updatedAt(db: Kysely<DB>, ids: number[]): Promise<Map<number, number>> {
    const { def } = this;
    const live = def.softDelete ? sql`and deleted_at is null` : sql``;
    let low = ids[0];
    let high = ids[0];
    for (const id of ids) {
      if (id < low) low = id;
      if (id > high) high = id;
    }
    const which = high - low < ids.length * 4 ? sql`id between ${low} and ${high}` : sql`id = any(${ids}::int[])`;
    const { rows } = await sql<{ list: string }>`
      select coalesce(json_agg(json_build_array(id, ${microseconds(sql.ref('updated_at'))})), '[]')::text as list
      from ${sql.table(def.table)} where ${which} ${live}`.execute(db);
    return new Map(JSON.parse(rows[0].list) as Array<[number, number]>);
  }

  /** `unchanged` for a type with more kept hashes than are held: one lookup of the chunk's hashes. */
  private async unchangedByQuery(db: Kysely<DB>, hashes: readonly string[]): Promise<Set<number>> {
    const { def } = this;
    const live = def.softDelete ? sql`and t.deleted_at is null` : sql``;
    const asked = hashes.map((hash, i) => ({ i, hash }));
    const found = await sql<{ i: number }>`
      select x.i from json_to_recordset(${JSON.stringify(asked)}::json) as x(i integer, hash text)
      join import_row_hashes h on h.record_type = ${def.type} and h.content_hash = x.hash
      join ${sql.table(def.table)} t on t.id = h.record_id and t.updated_at = h.record_updated_at ${live}`.execute(db);
    return new Set(found.rows.map(({ i }) => Number(i)));
  }

  /** After the chunk's writes: the rows that went to a record (created, updated or unchanged), with the record's `updated_at` now. */
  async remember(trx: Transaction<DB>, written: ReadonlyArray<{ row: MappedRow; id: number }>) {
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
      on conflict (record_type, key) do update set record_id = excluded.record_id, content_hash = excluded.content_hash, record_updated_at = excluded.record_updated_at`.execute(
      trx,
    );
  }
}
