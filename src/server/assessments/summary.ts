import { type RawBuilder, sql } from 'kysely';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { canRead } from '../reports/scope.js';

export interface AssessedPerson {
  type: 'contact' | 'recruit' | 'member';
  id: number;
  name: string;
  assessment: string | null;
  is_leader: boolean;
  on_committee: boolean;
}

export interface AssessmentSummary {
  total: number;
  leaders: number;
  committee: number;
  levels: Array<{ slug: string | null; name: string; color: string | null; count: number; people: AssessedPerson[] }>;
  /** The people at each level at the end of each day something changed, and today (the counts above). */
  over_time: Array<{ day: string; counts: Record<string, number> }>;
}

type Scope = { campaign_id: number } | { site_id: number };

/** Which people of each type belong to the campaign (who work for its contractors or at its sites) or the site. */
function peopleOf(scope: Scope): Record<AssessedPerson['type'], RawBuilder<boolean>> {
  if ('site_id' in scope)
    return {
      contact: sql<boolean>`t.id in (select sc.contact_id from site_contacts sc where sc.site_id = ${scope.site_id})`,
      recruit: sql<boolean>`t.site_id = ${scope.site_id}`,
      member: sql<boolean>`false`,
    };
  const contractors = sql`(select cc.contractor_id from campaign_contractors cc where cc.campaign_id = ${scope.campaign_id})`;
  const sites = sql`(select cs.site_id from campaign_sites cs where cs.campaign_id = ${scope.campaign_id})`;
  return {
    contact: sql<boolean>`(t.contractor_id in ${contractors}
      or t.id in (select sc.contact_id from site_contacts sc where sc.site_id in ${sites}))`,
    recruit: sql<boolean>`(t.contractor_id in ${contractors} or t.site_id in ${sites})`,
    member: sql<boolean>`t.contractor_id in ${contractors}`,
  };
}

/**
 * A campaign's or a site's people by assessment (`GET /api/assessments/summary?campaign_id=|site_id=`): each level with
 * its people, those not assessed, the leaders and the committee, and the chart of the levels over time from the
 * history. Only the people the reader may read are counted, each type through its own read rules; the caller has
 * checked that they read the campaign or site.
 */
export async function assessmentSummary(ctx: AppContext, user: AuthUser, scope: Scope): Promise<AssessmentSummary> {
  const conditions = peopleOf(scope);
  const people: AssessedPerson[] = [];
  for (const type of ['contact', 'recruit', 'member'] as const) {
    const def = ctx.resources.get(`${type}s`);
    if (!def || !canRead(user, def)) continue;
    const rows = await (await ctx.records.visibleRows(ctx.db, def, user))
      .select([
        't.id',
        sql<string>`trim(t.first_name || ' ' || coalesce(t.last_name, ''))`.as('name'),
        't.assessment',
        't.is_leader',
        't.on_committee',
      ])
      .where(conditions[type])
      .orderBy('t.last_name')
      .orderBy('t.first_name')
      .limit(2_000)
      .execute();
    for (const row of rows)
      people.push({
        type,
        id: Number(row.id),
        name: row.name,
        assessment: (row.assessment as string | null) ?? null,
        is_leader: Boolean(row.is_leader),
        on_committee: Boolean(row.on_committee),
      });
  }
  const levels = await ctx.db
    .selectFrom('assessment_levels')
    .select(['slug', 'name', 'color'])
    .where('deleted_at', 'is', null)
    .orderBy('position')
    .execute();
  const byLevel = (slug: string | null) => people.filter((person) => person.assessment === slug);
  const known = new Set(levels.map((level) => level.slug));
  const current = countsOf(people.map((person) => person.assessment));
  return {
    total: people.length,
    leaders: people.filter((person) => person.is_leader).length,
    committee: people.filter((person) => person.on_committee).length,
    levels: [
      ...levels.map((level) => ({
        slug: level.slug as string,
        name: level.name as string,
        color: (level.color as string | null) ?? null,
        count: byLevel(level.slug).length,
        people: byLevel(level.slug),
      })),
      // People at a level since removed from the list, and people not assessed.
      ...[...new Set(people.map((person) => person.assessment))]
        .filter((slug): slug is string => slug !== null && !known.has(slug))
        .map((slug) => ({ slug, name: slug, color: null, count: byLevel(slug).length, people: byLevel(slug) })),
      { slug: null, name: 'Not assessed', color: null, count: byLevel(null).length, people: byLevel(null) },
    ],
    over_time: await overTime(ctx, people, current),
  };
}

const countsOf = (levels: Array<string | null>) => {
  const counts: Record<string, number> = {};
  for (const level of levels) if (level !== null) counts[level] = (counts[level] ?? 0) + 1;
  return counts;
};

/** Each day a change of these people's assessments was recorded, the people at each level that evening; then today. */
async function overTime(ctx: AppContext, people: AssessedPerson[], today: Record<string, number>) {
  const todayDay = new Date().toISOString().slice(0, 10);
  if (!people.length) return [{ day: todayDay, counts: today }];
  const keys = people.map((person) => sql`(${person.type}, ${person.id})`);
  const { rows } = await sql<{ person_type: string; person_id: number; level: string | null; day: string }>`
    select person_type, person_id, level, to_char(assessed_at at time zone 'UTC', 'YYYY-MM-DD') as day
    from assessments where (person_type, person_id) in (${sql.join(keys)})
    order by assessed_at, id`.execute(ctx.db);
  const levelOf = new Map<string, string | null>();
  const points: Array<{ day: string; counts: Record<string, number> }> = [];
  for (const [i, row] of rows.entries()) {
    levelOf.set(`${row.person_type}:${row.person_id}`, row.level);
    const next = rows[i + 1];
    if (row.day < todayDay && (!next || next.day !== row.day))
      points.push({ day: row.day, counts: countsOf([...levelOf.values()]) });
  }
  // Today is the people as they stand: the figures beside the chart.
  points.push({ day: todayDay, counts: today });
  return points.slice(-400);
}
