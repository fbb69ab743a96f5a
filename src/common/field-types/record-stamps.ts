import * as z from 'zod/mini';
import { asText } from './cells.js';
import { defineFieldType, type FieldSpec, type Sql, type SqlFragment } from './define.js';
import { COMMON } from './options.js';
import { PERSON_FILTERS, PERSON_SORT, USERS } from './person.js';
import { STANDARD_FILTERS, STANDARD_SORT } from './sql.js';
import { plainWords } from './words.js';

/** What a stamp field shows of its record: when it was made or last changed (its row), who did (its history). */
export type StampSource = 'created_at' | 'updated_at' | 'created_by' | 'updated_by';

const column = (sql: Sql, alias: string | null, name: string) => sql.ref(alias ? `${alias}.${name}` : name);

/**
 * The SQL of a stamp: the record's own `created_at` / `updated_at`, or the author of its first (created by) or latest
 * (updated by) revision, found through the revisions' index by record (`revisions_record_idx`). Nobody (null) for a
 * change the server made on its own, and for records older than their history.
 */
function stampSql(source: StampSource, recordType: string | undefined): NonNullable<FieldSpec['computed']> {
  if (source === 'created_at' || source === 'updated_at') return (sql, alias) => column(sql, alias, source);
  const order = source === 'created_by' ? 'asc' : 'desc';
  return (sql, alias): SqlFragment =>
    recordType === undefined
      ? sql`null::integer`
      : sql`(select r.user_id from revisions r where r.revisionable_type = ${sql.lit(recordType)} and r.revisionable_id = ${column(sql, alias, 'id')} order by r.id ${sql.raw(order)} limit 1)`;
}

/**
 * A field an administrator adds to any record type to show, filter and sort by when a record was made or last changed,
 * or by whom: read from the record itself, never stored nor written (the person fields take `me` in filters and sort
 * by the person's name, as `person` does).
 */
export const recordStampType = (type: string, label: string, source: StampSource) => {
  const byPerson = source === 'created_by' || source === 'updated_by';
  return defineFieldType({
    type,
    label,
    options: z.strictObject({ help: COMMON.help, hide_in_list: COMMON.hide_in_list }),
    checkOptions: (options) => options,
    validation: () => [],
    kind: () => (byPerson ? 'integer' : 'datetime'),
    spec: (_options, { recordType }) => ({
      storage: 'virtual',
      readOnly: true,
      computed: stampSql(source, recordType),
      ...(byPerson ? { references: USERS } : {}),
    }),
    fromCell: asText,
    toCell: byPerson ? 'names' : 'value',
    filters: byPerson ? PERSON_FILTERS : STANDARD_FILTERS,
    sort: byPerson ? PERSON_SORT : STANDARD_SORT,
    filterIndex: () => null,
    words: plainWords,
    textual: false,
    groupable: false,
  });
};
