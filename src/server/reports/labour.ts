import { sql, type RawBuilder } from 'kysely';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { visibleCondition } from './scope.js';

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
 */
export type Labour = 'union' | 'non-union' | 'unknown';
export const LABOURS: readonly Labour[] = ['union', 'non-union', 'unknown'];

/** Per site: does it have a readable union / non-union contractor? A derived table `(site_id, has_union, has_non_union)`. */
export function contractorLabour(ctx: AppContext, user: AuthUser): RawBuilder<unknown> {
  return sql`(
    select x.site_id, bool_or(c.type = 'union') as has_union, bool_or(c.type = 'non-union') as has_non_union
    from (
      select sc.site_id, sc.contractor_id from site_contractors sc
      union all
      select g.id, g.general_contractor_id from sites g where g.general_contractor_id is not null
    ) x
    join contractors c on c.id = x.contractor_id
    where c.type in ('union', 'non-union') and ${visibleCondition(ctx, 'contractors', user, 'c')}
    group by x.site_id
  )`;
}

/** The labour of site `s` given the row `k` of `contractorLabour` joined on it (left join). */
export function labourCase(s = 's', k = 'k'): RawBuilder<Labour> {
  const ref = (name: string) => sql.ref(name);
  return sql<Labour>`(case
    when ${ref(`${k}.has_union`)} then 'union'
    when ${ref(`${k}.has_non_union`)} then 'non-union'
    when ${ref(`${s}.type`)} in ('union', 'pla') then 'union'
    when ${ref(`${s}.type`)} = 'non-union' then 'non-union'
    else 'unknown' end)`;
}

/** `from sites s left join (contractor labour) k` with the person's site visibility: the base of every labour query. */
export function labouredSitesFrom(ctx: AppContext, user: AuthUser): { from: RawBuilder<unknown>; where: RawBuilder<boolean>; labour: RawBuilder<Labour> } {
  return {
    from: sql`sites s left join ${contractorLabour(ctx, user)} k on k.site_id = s.id`,
    where: visibleCondition(ctx, 'sites', user, 's'),
    labour: labourCase('s', 'k'),
  };
}
