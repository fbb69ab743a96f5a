import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import type { ClassificationRow } from '../../common/report-types.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { forbidden } from '../http/errors.js';
import { canRead, parseFilters, rangeCondition, rangeFilter, resourceDef, visibleCondition } from './scope.js';

export const classificationsShape = {
  group_by: z.enum(['classification', 'classification_type']).default('classification'),
  union_id: z.coerce.number().int().min(1).optional(),
  trade_id: z.coerce.number().int().min(1).optional(),
};
export type ClassificationsParams = ReturnType<typeof parseClassifications>;
export const parseClassifications = (query: unknown) => parseFilters(classificationsShape, query);

/**
 * GET /api/reports/classifications: members (by their `classification_id`) and contacts (by the administrator-defined
 * `classification_id` field of the contact record type, kept in `custom`; contacts have no built-in classification)
 * per classification or per classification type. Filters: union, trade, team, joined/created date range. Members
 * need `member:read`, contacts `contact:read`; a column the person may not read is null.
 */
export async function classifications(ctx: AppContext, user: AuthUser, params: ClassificationsParams) {
  const readsMembers = canRead(user, resourceDef(ctx, 'members'));
  // Contacts are counted only when the contact record type has a classification field (administrator-defined).
  const contactsDef = resourceDef(ctx, 'contacts');
  const contactsClassified = ctx.resources.get('contacts')
    ? 'classification_id' in (await ctx.records.fields(contactsDef))
    : true;
  const readsContacts = canRead(user, contactsDef) && contactsClassified;
  if (!readsMembers && !canRead(user, contactsDef))
    throw forbidden('You do not have permission to read members or contacts.');
  const range = { from: params.from, to: params.to };
  const memberWhere: RawBuilder<boolean>[] = [
    await visibleCondition(ctx, 'members', user, 'm'),
    rangeCondition('m.created_at', range),
  ];
  const contactWhere: RawBuilder<boolean>[] = [
    await visibleCondition(ctx, 'contacts', user, 'c'),
    rangeCondition('c.created_at', range),
  ];
  const filter: Record<string, unknown> = { ...rangeFilter('created_at', range) };
  if (params.union_id) {
    memberWhere.push(sql<boolean>`m.union_id = ${params.union_id}`);
    filter.union_id = params.union_id;
  }
  if (params.trade_id) {
    memberWhere.push(sql<boolean>`m.trade_id = ${params.trade_id}`);
    contactWhere.push(sql<boolean>`c.trade_id = ${params.trade_id}`);
    filter.trade_id = params.trade_id;
  }
  if (params.team_id) {
    memberWhere.push(sql<boolean>`m.team_id = ${params.team_id}`);
    contactWhere.push(sql<boolean>`c.team_id = ${params.team_id}`);
    filter.team_id = params.team_id;
  }
  if (params.user_id) {
    memberWhere.push(sql<boolean>`m.user_id = ${params.user_id}`);
    contactWhere.push(sql<boolean>`c.user_id = ${params.user_id}`);
    filter.user_id = params.user_id;
  }
  const contactFilter = { ...filter };
  delete contactFilter.union_id;
  const byType = params.group_by === 'classification_type';
  const { rows } = await sql<any>`
    with counts as (
      select m.classification_id as cid, count(*)::int as members, count(*) filter (where m.is_steward)::int as stewards, 0 as contacts
      from members m where ${sql.join(memberWhere, sql` and `)} group by 1
      union all
      select case when (c.custom ->> 'classification_id') ~ '^[0-9]{1,9}$' then (c.custom ->> 'classification_id')::int end, 0, 0, count(*)::int
      from contacts c where ${params.union_id ? sql`false` : sql.join(contactWhere, sql` and `)} group by 1
    )
    select ${byType ? sql`ct.id` : sql`cl.id`} as key,
      ${byType ? sql`ct.name` : sql`cl.name`} as label,
      ${byType ? sql`null` : sql`ct.name`} as classification_type,
      ${byType ? sql`array_remove(array_agg(distinct cl.id), null)` : sql`array[cl.id]`} as classification_ids,
      coalesce(sum(k.members), 0)::int as members, coalesce(sum(k.stewards), 0)::int as stewards, coalesce(sum(k.contacts), 0)::int as contacts
    from counts k
    left join classifications cl on cl.id = k.cid
    left join classification_types ct on ct.id = cl.classification_type_id
    group by 1, 2, 3 ${byType ? sql`` : sql`, cl.id`}
    order by 3 nulls last, 2 nulls last`.execute(ctx.db);

  // Classifications with nobody in them still get a row, so the table shows the whole list.
  const all = await sql<any>`
    select ${byType ? sql`ct.id` : sql`cl.id`} as key, ${byType ? sql`ct.name` : sql`cl.name`} as label, ${byType ? sql`null` : sql`ct.name`} as classification_type,
      ${byType ? sql`array_agg(cl.id)` : sql`array[cl.id]`} as classification_ids
    from classifications cl left join classification_types ct on ct.id = cl.classification_type_id
    where cl.deleted_at is null group by 1, 2, 3 order by 3 nulls last, 2`.execute(ctx.db);
  const counted = new Map(rows.map((r: any) => [r.key ?? 'none', r]));
  const merged = all.rows.map((r: any) => counted.get(r.key) ?? { ...r, members: 0, stewards: 0, contacts: 0 });
  for (const r of rows) if (!all.rows.some((a: any) => a.key === r.key)) merged.push(r);

  const data: ClassificationRow[] = merged.map((row: any) => {
    const ids: number[] = (row.classification_ids ?? []).filter((id: unknown) => id !== null);
    const which = row.key === null ? { classification_id_null: true } : { classification_id: byType ? ids : row.key };
    return {
      key: row.key,
      label: row.label ?? 'No classification',
      classification_type: row.classification_type,
      members: readsMembers ? row.members : null,
      stewards: readsMembers ? row.stewards : null,
      contacts: readsContacts ? row.contacts : null,
      links: {
        members: readsMembers ? { resource: 'members', filter: { ...filter, ...which } } : null,
        stewards: readsMembers ? { resource: 'members', filter: { ...filter, ...which, is_steward: true } } : null,
        contacts:
          readsContacts && !params.union_id ? { resource: 'contacts', filter: { ...contactFilter, ...which } } : null,
      },
    };
  });
  const sum = (k: 'members' | 'stewards' | 'contacts') =>
    data.some((r) => r[k] === null) ? null : data.reduce((n, r) => n + (r[k] ?? 0), 0);
  return {
    data,
    totals: { members: sum('members'), stewards: sum('stewards'), contacts: sum('contacts') },
    meta: { group_by: params.group_by, contacts_classified: contactsClassified },
  };
}
