/**
 * How a record is named: THE record representation on the server (the client's is records/label.ts: name, title,
 * or first and last name). Pickers, exports, history, tasks and the activity feed name records with it, never by id.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { AuthUser } from '../auth/auth-user.js';
import type { RecordService } from './record-service.js';
import type { ResourceDefinition } from './resource.js';

const PERSON = `first_name || ' ' || last_name`;
/** Resources named by columns other than `name`. */
const LABELS: Readonly<Record<string, string>> = {
  users: PERSON,
  contacts: PERSON,
  members: PERSON,
  recruits: PERSON,
  grievances: 'title',
  tasks: 'title',
  exports: 'file_name',
  documents: 'file_name',
};

/** The SQL naming a row of `def` over its columns (`t.` unqualified), or undefined when its rows have no name. */
export function labelSql(def: ResourceDefinition): string | undefined {
  if (def.optionLabel) return def.optionLabel;
  if (LABELS[def.name]) return LABELS[def.name];
  if ('name' in def.fields || def.customFields) return 'name';
  if ('title' in def.fields) return 'title';
  return undefined;
}

/** The same, as a Kysely expression. */
export function labelExpression(def: ResourceDefinition): RawBuilder<string> | undefined {
  const label = labelSql(def);
  return label ? sql<string>`${sql.raw(label)}` : undefined;
}

/**
 * The names of these rows of `def` that `user` may read (the list's row rules), by id. Rows the person may not read
 * (or that are gone) are left out: the caller shows what it has without them.
 */
export async function namesOf(records: RecordService, db: Kysely<any>, def: ResourceDefinition, user: AuthUser | null, ids: readonly number[]): Promise<Map<number, string>> {
  const label = labelExpression(def);
  const wanted = [...new Set(ids.filter((id) => Number.isInteger(id)))];
  if (!label || wanted.length === 0) return new Map();
  const rows = await records
    .visibleRows(db, def, user, 'with')
    .select(['t.id', label.as('label')])
    .where('t.id', 'in', wanted)
    .execute();
  return new Map(rows.filter((row) => typeof row.label === 'string' && row.label.trim()).map((row) => [Number(row.id), String(row.label).trim()]));
}
