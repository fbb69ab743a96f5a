import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { fieldError } from '../http/errors.js';
import { fieldExpression } from '../records/list-query.js';
import type { FieldSpec } from '../records/resource.js';
import { resourceDef, visibleCondition } from './scope.js';

/**
 * Reports grouped by a choice field (a dropdown or radio buttons field, custom ones included) of sites or of
 * contractors: `group_by=field:{slug}` (a field of the report's own records) or `group_by=field:{type}.{slug}` (a
 * field of the sites or contractors the report's records belong to). Written once here and used by every report that
 * groups so; each row is labelled with the choice's label, never its stored value.
 *
 * A record counts in the group of each value it reaches: a multi-value dropdown holds several, and a site reaches
 * the values of each of its contractors. Only contractors the person may read count.
 */
const FIELD_GROUP = /^field:(?:(site|contractor)\.)?([a-z][a-z0-9_]{0,59})$/;
const FIELD_GROUP_HINT =
  'field:{slug}, field:site.{slug} or field:contractor.{slug} of a dropdown or radio buttons field';

/** The `group_by` of a report: one of its fixed groupings, or a field grouping; one message for anything else. */
export function groupByParam<T extends string>(fixed: readonly T[], fieldsOf: string) {
  const message = `The group must be one of: ${fixed.join(', ')}, or ${FIELD_GROUP_HINT} of ${fieldsOf}.`;
  return z
    .string({ error: message })
    .refine((value) => (fixed as readonly string[]).includes(value) || FIELD_GROUP.test(value), { error: message });
}

/** The record types whose choice fields a report may group by. */
export type GroupOwner = 'site' | 'contractor';
const RESOURCE: Record<GroupOwner, { resource: string; plural: string }> = {
  site: { resource: 'sites', plural: 'Sites' },
  contractor: { resource: 'contractors', plural: 'Contractors' },
};

export interface FieldGroup {
  owner: GroupOwner;
  slug: string;
  spec: FieldSpec;
  /** A record may fall in several groups (a multi-value field, or a field of the site's contractors). */
  multiple: boolean;
}

/**
 * The grouping of `group_by` when it names a field, else null; 422 unless `owner` (or the report's own type when
 * the field is not qualified) has a dropdown or radio buttons field of that slug that `user` may see. `own` is the report's own type, or
 * null when its records are neither sites nor contractors (a field must then be qualified).
 */
export async function fieldGroup(
  ctx: AppContext,
  user: AuthUser,
  groupBy: string,
  own: GroupOwner | null,
): Promise<FieldGroup | null> {
  if (!groupBy.startsWith('field:')) return null;
  const match = FIELD_GROUP.exec(groupBy);
  const owner = (match?.[1] as GroupOwner | undefined) ?? own;
  if (!match || !owner) throw fieldError('group_by', `The group must be ${FIELD_GROUP_HINT}.`);
  const slug = match[2];
  // Only a field the person's role shows them: grouping by a hidden one would show its values' counts.
  const spec = (await ctx.records.visibleFields(user, resourceDef(ctx, RESOURCE[owner].resource)))[slug];
  const single = spec?.kind === 'enum' && spec.storage !== 'virtual' && typeof spec.storage !== 'object';
  const several = spec?.kind === 'enum[]' && spec.storage === 'custom';
  if (!spec || !(single || several))
    throw fieldError(
      'group_by',
      `${RESOURCE[owner].plural} have no dropdown or radio buttons field "${slug}" to group by.`,
    );
  // A site links several contractors; a task is on one record.
  return { owner, slug, spec, multiple: several || (own !== null && owner !== own) };
}

/** What a group is called: its choice's label, the value itself when it is no longer a choice, "No {field}" for none. */
export function groupLabel(group: FieldGroup, key: string | null): string {
  return key === null
    ? `No ${group.spec.label ?? group.slug.replace(/_/g, ' ')}`
    : (group.spec.choiceLabels?.[key] ?? key);
}

/** The value of a single-value field of the row `alias` (null when empty), for grouping without a join. */
export function singleValue(group: FieldGroup, alias: string): RawBuilder<unknown> {
  return sql`nullif(${fieldExpression(group.slug, group.spec, alias)}::text, '')`;
}

/** The field's values on the row `alias` of its own type: a subquery of rows `(key)`, none when empty. */
function valuesOfRow(group: FieldGroup, alias: string): RawBuilder<unknown> {
  if (group.spec.kind === 'enum')
    return sql`select ${singleValue(group, alias)} as key where ${singleValue(group, alias)} is not null`;
  const list = sql`(${sql.ref(`${alias}.custom`)} -> ${sql.lit(group.slug)})`;
  return sql`select distinct v.key from jsonb_array_elements_text(case jsonb_typeof(${list}) when 'array' then ${list} else '[]'::jsonb end) v(key) where v.key <> ''`;
}

/**
 * Rows `(site_id, key)`: the values of the field of each contractor a site links (its `site_contractors` and its
 * general contractor) that the person may read; a value held by two of a site's contractors gives two rows.
 */
async function contractorKeysOfSites(ctx: AppContext, user: AuthUser, group: FieldGroup): Promise<RawBuilder<unknown>> {
  return sql`select l.site_id, k.key
    from (select sc.site_id, sc.contractor_id from site_contractors sc union all select gs.id, gs.general_contractor_id from sites gs where gs.general_contractor_id is not null) l
    join contractors gc on gc.id = l.contractor_id
    cross join lateral (${valuesOfRow(group, 'gc')}) k
    where ${await visibleCondition(ctx, 'contractors', user, 'gc')}`;
}

/**
 * A join giving the site `s` one row per group it is in, its key as `g.key` (null, once, for a site in none): the
 * values of its own field, or of its contractors' field.
 */
export async function siteGroupJoin(
  ctx: AppContext,
  user: AuthUser,
  group: FieldGroup,
  s = 's',
): Promise<RawBuilder<unknown>> {
  if (group.owner === 'site') return sql`left join lateral (${valuesOfRow(group, s)}) g on true`;
  return sql`left join (select distinct x.site_id, x.key from (${await contractorKeysOfSites(ctx, user, group)}) x) g on g.site_id = ${sql.ref(`${s}.id`)}`;
}

/** The site `s` is in the group `key` (`null`: in no group), as siteGroupJoin places it. */
export async function siteInGroup(
  ctx: AppContext,
  user: AuthUser,
  group: FieldGroup,
  key: string | null,
  s = 's',
): Promise<RawBuilder<boolean>> {
  const keys =
    group.owner === 'site'
      ? valuesOfRow(group, s)
      : sql`select x.key from (${await contractorKeysOfSites(ctx, user, group)}) x where x.site_id = ${sql.ref(`${s}.id`)}`;
  return key === null
    ? sql<boolean>`not exists (${keys})`
    : sql<boolean>`exists (select 1 from (${keys}) g where g.key = ${key})`;
}

/**
 * A join giving the task `t` one row per group it is in, its key as `g.key` (null, once, for a task in none): the
 * values of the field of the site or contractor it is on (`taskable_type`, `taskable_id`), when the person may read
 * that record.
 */
export async function taskGroupJoin(
  ctx: AppContext,
  user: AuthUser,
  group: FieldGroup,
  t = 't',
): Promise<RawBuilder<unknown>> {
  const { resource } = RESOURCE[group.owner];
  const table = sql.table(resourceDef(ctx, resource).table);
  return sql`left join lateral (select k.key from ${table} gr cross join lateral (${valuesOfRow(group, 'gr')}) k
    where ${sql.ref(`${t}.taskable_type`)} = ${group.owner} and gr.id = ${sql.ref(`${t}.taskable_id`)} and ${await visibleCondition(ctx, resource, user, 'gr')}) g on true`;
}

/** What the screen says under a table grouped by a field where a record can be in several groups. */
export function groupNote(group: FieldGroup, record: 'site' | 'task'): string | null {
  if (!group.multiple) return null;
  const holder =
    record === 'site' && group.owner === 'contractor'
      ? 'its contractors hold'
      : record === 'task'
        ? `its ${group.owner} holds`
        : 'it holds';
  return `A ${record} counts in the group of each value ${holder}, so the groups can add up to more than the total.`;
}
