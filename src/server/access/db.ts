import type { Kysely } from 'kysely';

/** The database as the access policy queries it: record tables are named at run time (a type made in the app). */
// biome-ignore lint/suspicious/noExplicitAny: the tables of record types are only known at run time.
export type AnyDb = Kysely<any>;
