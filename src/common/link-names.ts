/**
 * The names of the records a record links to, as the person reading it may read them: the API puts them on the
 * records of lists, shows and the answers of writes of a type with relations (server records/representation.ts), and
 * the screens show a relation by them without asking for the linked records.
 */
export const LINK_NAMES = '_labels';

/** Relation field -> linked record id -> its name. A linked record the reader may not read has no name. */
export type LinkNames = Record<string, Record<string, string>>;

/** The names a record carries, or undefined for a record that came without them (a revision's values, a map card). */
export function linkNamesOf(record: Record<string, unknown> | null | undefined): LinkNames | undefined {
  const names = record?.[LINK_NAMES];
  return names && typeof names === 'object' ? (names as LinkNames) : undefined;
}
