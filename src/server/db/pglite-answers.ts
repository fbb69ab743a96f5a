import { parse, protocol, types } from '@electric-sql/pglite';
import { asText, DATE, INT8, NUMERIC, toNumber } from './type-parsers.js';

/**
 * A statement's answer as the embedded database wrote it (PostgreSQL's protocol messages), read into rows on the
 * server's thread. The database's thread is the one that fills its core first under load (docs/benchmarks.md "Load"):
 * it hands over the bytes (moved, not copied), and the server's thread, which has time to spare, reads them, instead
 * of the database's thread reading the messages, building the rows and copying them across (structured clone).
 */

/** How values of these types are read, beside PGlite's own parsers (type-parsers.ts). */
export const OWN_PARSERS = { [INT8]: toNumber, [NUMERIC]: toNumber, [DATE]: asText };

/** Each array type and its element's type, as PGlite reads them when it opens (its `_initArrayTypes`). */
export type ArrayTypes = Array<{ oid: number; typarray: number }>;

export const ARRAY_TYPES_QUERY = `select b.oid, b.typarray from pg_catalog.pg_type a
  left join pg_catalog.pg_type b on b.oid = a.typelem where a.typcategory = 'A' group by b.oid, b.typarray order by b.oid`;

export type Parsers = Record<number | string, (value: string, typeId?: number) => unknown>;

/** The parsers PGlite's `query` would use on that database: its own, ours, and one for each array type. */
export function answerParsers(arrays: ArrayTypes): Parsers {
  const parsers: Parsers = { ...types.parsers, ...OWN_PARSERS };
  for (const { oid, typarray } of arrays)
    parsers[typarray] = (value) => types.arrayParser(value, parsers[oid] as types.Parser, typarray);
  return parsers;
}

type Messages = Parameters<typeof parse.parseResults>[0];

/** The protocol messages in `raw`. */
export function messagesOf(raw: Uint8Array): Messages {
  const messages: Messages = [];
  new protocol.Parser().parse(raw, (message) => messages.push(message));
  return messages;
}

/** Whether `raw` holds an ErrorResponse: reads only each message's type and length. */
export function holdsError(raw: Uint8Array): boolean {
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  // A message is its type (one byte), then its length (four, counting themselves), then its body.
  for (let at = 0; at + 5 <= raw.length; at += 1 + Math.max(4, view.getInt32(at + 1)))
    if (raw[at] === 0x45) return true;
  return false;
}

/** The rows (objects by column name) and the count of rows written of the one statement answered in `raw`. */
export function rowsOf(raw: Uint8Array, parsers: Parsers): { rows: unknown[]; affectedRows?: number } {
  const [result] = parse.parseResults(messagesOf(raw), parsers, { rowMode: 'object' });
  return result ? { rows: result.rows, affectedRows: result.affectedRows } : { rows: [], affectedRows: 0 };
}
