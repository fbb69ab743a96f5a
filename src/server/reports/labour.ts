import { type RawBuilder, sql } from 'kysely';
import type { Labour } from '../../common/report-types.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { canRead, resourceDef, visibleCondition } from './scope.js';

/**
 * THE definition of union and non-union work (docs/reports.md "How a site counts"), written once and used by every
 * report and drill-down:
 *
 * 1. a site is union work if any of its contractors (the `site_contractors` links and its general contractor) is of
 *    type `union`;
 * 2. else non-union work if any of them is of type `non-union`;
 * 3. else by the site's own type: `union` and `pla` are union work, `non-union` is non-union work;
 * 4. else unknown: left out of the share and counted on its own.
 *
 * Only contractors the person may read count (a person without `contractor:read:non-union` never learns through a
 * share that a site has a non-union contractor), and only sites the person may read are counted at all.
 *
 * Steps 1 and 2 come from one of two places, which give the same answer:
 * - the stored facts `site_labour (site_id, has_union_contractor, has_non_union_contractor)`, kept by database
 *   triggers (migration 006_site_labour), counting every contractor that is not soft-deleted: used when the
 *   contractors' read rule for the person is only "not deleted" plus categories, each fact being used only if the
 *   person may read that category (`contractor:read` or `contractor:read:union` for the first,
 *   `contractor:read` or `contractor:read:non-union` for the second);
 * - otherwise (a scope, an owner column or a row filter on contractors), derived on every request from the links and
 *   the contractors the person may read (`contractorLabour`).
 */
export const LABOURS: readonly Labour[] = ['union', 'non-union', 'unknown'];

/** Per site: does it have a readable union / non-union contractor? A derived table `(site_id, has_union, has_non_union)`. */
export async function contractorLabour(ctx: AppContext, user: AuthUser): Promise<RawBuilder<unknown>> {
  return sql`(
    select x.site_id, bool_or(c.type = 'union') as has_union, bool_or(c.type = 'non-union') as has_non_union
    from (
      select sc.site_id, sc.contractor_id from site_contractors sc
      union all
      select g.id, g.general_contractor_id from sites g where g.general_contractor_id is not null
    ) x
    join contractors c on c.id = x.contractor_id
    where c.type in ('union', 'non-union') and ${await visibleCondition(ctx, 'contractors', user, 'c')}
    group by x.site_id
  )`;
}

/**
 * Which stored facts (`site_labour`) stand for what the person may read of the contractors, or null when their read
 * rule is more than "not soft-deleted, of a category they hold" (then only the derived table is right for them).
 * `union` / `nonUnion`: whether the person may read contractors of that type (a fact they may not read is not used).
 */
export async function storedLabourFacts(
  ctx: AppContext,
  user: AuthUser,
): Promise<{ union: boolean; nonUnion: boolean } | null> {
  const def = resourceDef(ctx, 'contractors');
  // The stored facts count the rows of `contractors` that are not soft-deleted, by their `type`.
  if (def.table !== 'contractors' || !def.softDelete || def.categoryColumn !== 'type') return null;
  if (!canRead(user, def)) return { union: false, nonUnion: false };
  const allowed = await ctx.records.access.onlyCategories(user, def);
  if (allowed === null) return null;
  return {
    union: allowed === 'all' || allowed.includes('union'),
    nonUnion: allowed === 'all' || allowed.includes('non-union'),
  };
}

/**
 * The labour of site `s` given the row `k` (left-joined; null when the site has none) with the booleans `has_union`
 * and `has_non_union`; `null` as a column name leaves that step out.
 */
export function labourCase(
  s = 's',
  hasUnion: string | null = 'k.has_union',
  hasNonUnion: string | null = 'k.has_non_union',
): RawBuilder<Labour> {
  const ref = (name: string) => sql.ref(name);
  return sql<Labour>`(case
    ${hasUnion ? sql`when ${ref(hasUnion)} then 'union'` : sql``}
    ${hasNonUnion ? sql`when ${ref(hasNonUnion)} then 'non-union'` : sql``}
    when ${ref(`${s}.type`)} in ('union', 'pla') then 'union'
    when ${ref(`${s}.type`)} = 'non-union' then 'non-union'
    else 'unknown' end)`;
}

/** `from sites s (joined to its labour facts)` with the person's site visibility: the base of every labour query. */
export async function labouredSitesFrom(
  ctx: AppContext,
  user: AuthUser,
): Promise<{ from: RawBuilder<unknown>; where: RawBuilder<boolean>; labour: RawBuilder<Labour> }> {
  const where = await visibleCondition(ctx, 'sites', user, 's');
  const stored = await storedLabourFacts(ctx, user);
  if (stored && !stored.union && !stored.nonUnion) {
    // No contractor type the person may read decides anything: the site's own type does.
    return { from: sql`sites s`, where, labour: labourCase('s', null, null) };
  }
  if (stored) {
    return {
      from: sql`sites s left join site_labour k on k.site_id = s.id`,
      where,
      labour: labourCase(
        's',
        stored.union ? 'k.has_union_contractor' : null,
        stored.nonUnion ? 'k.has_non_union_contractor' : null,
      ),
    };
  }
  return {
    from: sql`sites s left join ${await contractorLabour(ctx, user)} k on k.site_id = s.id`,
    where,
    labour: labourCase('s'),
  };
}
