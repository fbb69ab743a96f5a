import { evaluateLogic } from '../../common/form-logic/index.js';
import { dynamicTables } from '../db/dynamic-tables.js';
import { isBlank } from '../records/fields.js';
import type { RecordService } from '../records/record-service.js';
import type { ValueChange, ValueHome } from './field-values.js';
import { schemaStore } from './schema-store.js';

/** At most this many rewritten records are looked at (a warning, not a check: a sample says enough). */
const LOOKED_AT = 5_000;

/**
 * The records a change of values (a choice remap) leaves failing the type's rules: a required field its logic shows
 * once the record holds the new value, and the record leaves empty, that it did not miss before. They keep the new
 * value (the change is the administrator's); the impact says how many, and which fields, before it is made.
 */
export async function recordsLeftFailing(
  db: RecordService['db'],
  home: ValueHome,
  field: { slug: string },
  rewrites: readonly ValueChange[],
): Promise<{ records: number; fields: string[] } | null> {
  const schema = (await schemaStore(db).snapshot(db.isTransaction ? db : undefined)).byType.get(home.type);
  const required = (schema?.fields ?? []).filter((f) => f.required && f.slug !== field.slug);
  if (!schema || !required.length) return null;
  const ids = rewrites.slice(0, LOOKED_AT).map((change) => change.id);
  const rows = await dynamicTables(db)
    .selectFrom(`${home.table} as t`)
    .selectAll('t')
    .where('t.id', 'in', ids)
    .execute();
  const records = new Map(rows.map(({ custom, ...row }) => [Number(row.id), { ...(custom ?? {}), ...row }]));
  const missing = (values: Record<string, unknown>) => {
    const shown = evaluateLogic(schema.actions, values, { trigger: 'all', fields: schema.fields, logger: () => {} });
    return required.filter((f) => shown.visibility[f.slug] !== 'hidden' && isBlank(values[f.slug])).map((f) => f.name);
  };
  let failing = 0;
  const names = new Set<string>();
  for (const change of rewrites.slice(0, LOOKED_AT)) {
    const record = records.get(change.id);
    if (!record) continue;
    const before = new Set(missing(record));
    const fresh = missing({ ...record, [field.slug]: change.after }).filter((name) => !before.has(name));
    if (!fresh.length) continue;
    failing++;
    for (const name of fresh) names.add(name);
  }
  return failing ? { records: failing, fields: [...names] } : null;
}
