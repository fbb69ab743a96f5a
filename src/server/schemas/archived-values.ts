import { sql } from 'kysely';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { fieldError, HttpError } from '../http/errors.js';
import type { ResourceDefinition } from '../records/resource.js';
import { schemaStore } from './schema-store.js';

/**
 * The values a change to a record type took out of a record (docs/records.md "Changing a record type"): a field
 * deleted, a value the field's new type could not hold, a relation pointed elsewhere, the values after the first
 * when a field of several became a field of one. Listed on the record's history for those who may read the record,
 * and put back, through the data service (checked as any write, one revision), by those who may update it.
 */
export interface ArchivedValue {
  id: number;
  field: { slug: string; name: string; type: string };
  value: unknown;
  reason: string;
  archived_at: string;
  archived_by: { id: number; name: string } | null;
  restored_at: string | null;
  /** The record type still has a field of that slug to put it back in. */
  restorable: boolean;
}

type Row = {
  id: string | number;
  record_type: string;
  record_id: number;
  field_slug: string;
  field: { name?: string; type?: string; options?: { target?: unknown } };
  value: unknown;
  reason: string;
  archived_at: Date | string;
  archived_by: number | null;
  archived_by_name: string | null;
  restored_at: Date | string | null;
};

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export class ArchivedValues {
  constructor(private readonly ctx: AppContext) {}

  private definition(type: string): ResourceDefinition {
    const def = this.ctx.resources.byType(type);
    if (!def) throw fieldError('type', `There is no record type “${type}”.`);
    return def;
  }

  private rows(where: ReturnType<typeof sql<boolean>>) {
    return sql<Row>`select a.id, a.record_type, a.record_id, a.field_slug, a.field, a.value, a.reason, a.archived_at,
        a.archived_by, trim(u.first_name || ' ' || u.last_name) as archived_by_name, a.restored_at
      from field_value_archive a left join users u on u.id = a.archived_by
      where ${where} order by a.archived_at desc, a.id desc`.execute(this.ctx.db);
  }

  /** The values archived from one record, newest first, for a person who may read the record. */
  async list(user: AuthUser | null, type: string, recordId: number): Promise<ArchivedValue[]> {
    const def = this.definition(type);
    await this.ctx.records.show(user, def, recordId, { withTrashed: true });
    const fields = await this.ctx.records.fields(def);
    const { rows } = await this.rows(sql<boolean>`a.record_type = ${type} and a.record_id = ${recordId}`);
    return rows.map((row) => ({
      id: Number(row.id),
      field: { slug: row.field_slug, name: row.field?.name ?? row.field_slug, type: row.field?.type ?? 'text' },
      value: row.value,
      reason: row.reason,
      archived_at: iso(row.archived_at)!,
      archived_by: row.archived_by ? { id: row.archived_by, name: row.archived_by_name ?? '' } : null,
      restored_at: iso(row.restored_at),
      restorable: row.restored_at === null && row.field_slug in fields,
    }));
  }

  /** Puts an archived value back on its record (an update: permission, checks, revision), and marks it restored. */
  async restore(user: AuthUser | null, id: number) {
    const { rows } = await this.rows(sql<boolean>`a.id = ${id}`);
    const row = rows[0];
    if (!row) throw new HttpError(404, `No archived value has the id ${id}.`);
    const def = this.definition(row.record_type);
    await this.ctx.records.show(user, def, row.record_id);
    if (row.restored_at) throw new HttpError(409, 'This value was restored already.');
    const fields = await this.ctx.records.fields(def);
    const spec = fields[row.field_slug];
    const name = row.field?.name ?? row.field_slug;
    if (!spec)
      throw fieldError(
        'field',
        `${name} is no longer a field of this record type: add a field with the slug “${row.field_slug}” to put the value back.`,
      );
    // Ids name records of what the field pointed at then: never put back into a field that points elsewhere now.
    const then = row.field as { type?: string; options?: { target?: unknown } };
    const now = (await schemaStore(this.ctx.db).snapshot()).byType
      .get(row.record_type)
      ?.fields.find((field) => field.slug === row.field_slug);
    if (
      (then.type === 'relation' || now?.type === 'relation') &&
      (then.type !== now?.type || then.options?.target !== now?.options?.target)
    )
      throw fieldError(
        'field',
        `This value named ${String(then.options?.target ?? then.type)} records; ${name} now holds ${now?.type === 'relation' ? `${String(now.options?.target)} records` : 'other values'}: it cannot be put back.`,
      );
    if (Array.isArray(row.value) && !spec.kind.endsWith('[]') && spec.kind !== 'json')
      throw fieldError(
        'field',
        `${name} now holds one value, and this archive holds several: put back the one you need by hand.`,
      );
    return this.ctx.records.update(
      user,
      def,
      row.record_id,
      { [row.field_slug]: row.value },
      {
        within: async (trx) => {
          await sql`update field_value_archive set restored_at = now(), restored_by = ${user?.id ?? null} where id = ${id}`.execute(
            trx,
          );
        },
      },
    );
  }
}
