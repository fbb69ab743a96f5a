import { sql } from 'kysely';
import { type RolePolicy, TURF_OR_OWN, type TurfOutlook, type TypeOutlook } from '../../common/access-rules.js';
import type { AuthUser } from '../auth/auth-user.js';
import { loadAuthUser } from '../auth/load-user.js';
import { countMatches } from '../records/list-query.js';
import type { RecordService } from '../records/record-service.js';
import { labelExpression } from '../records/representation.js';
import type { ResourceDefinition } from '../records/resource.js';
import { asSql } from './predicate.js';

/** How many of a sample of records to name. */
const SAMPLE = 5;

/**
 * "See as" (docs/security.md "The administrator's screen"): for a person, as their role is or with a role not saved
 * yet (`grant`), how many records of each type they would read and a few of them by name. Names are only of records
 * the one asking may read too; the counts are the person's.
 */
export async function seeAs(
  records: RecordService,
  types: readonly ResourceDefinition[],
  asker: AuthUser,
  person: AuthUser,
  grant?: { permissions: string[]; policy: RolePolicy },
): Promise<TypeOutlook[]> {
  const subject: AuthUser = grant ? { ...person, permissions: grant.permissions, policy: grant.policy } : person;
  const out: TypeOutlook[] = [];
  for (const def of types) {
    if (!records.access.mayRead(subject, def)) continue;
    const rows = await records.visibleRows(records.db, def, subject);
    const { total, estimated } = await countMatches(records.db, rows, true);
    const label = labelExpression(def);
    let sample: TypeOutlook['sample'] = [];
    if (label && total && records.access.mayRead(asker, def)) {
      const askerMay = await records.access.where(asker, def);
      const named = await rows
        .select(['t.id', label.as('label')])
        .$if(askerMay !== true, (query) => query.where(asSql(askerMay)))
        .orderBy('t.id', 'desc')
        .limit(SAMPLE)
        .execute();
      sample = named.map((row: { id: unknown; label: unknown }) => ({
        id: Number(row.id),
        label: String(row.label ?? `#${row.id}`),
      }));
    }
    const names = await records.access.namesOf(def);
    out.push({ type: def.type, resource: def.name, plural: names.plural, count: total, estimated, sample });
  }
  return out;
}

/**
 * For the turf dialog: for each person a turf being drawn is to be assigned to (by name, or through a team), whether
 * it scopes them (their role's site rule is "their turf") and how many sites they read now and would with it.
 */
export async function turfOutlook(
  records: RecordService,
  sites: ResourceDefinition,
  userIds: readonly number[],
  insideIds: readonly number[],
): Promise<TurfOutlook[]> {
  const out: TurfOutlook[] = [];
  for (const id of [...new Set(userIds)]) {
    const person = await loadAuthUser(records.db, id);
    if (!person) continue;
    const readsSites = records.access.mayRead(person, sites);
    const scoped = readsSites && (await records.access.turfLimited(person, sites));
    const visible = await records.visibleRows(records.db, sites, person);
    const now = readsSites
      ? Number((await visible.select(sql<number>`count(*)`.as('n')).executeTakeFirst())?.n ?? 0)
      : 0;
    let after = now;
    if (scoped && insideIds.length) {
      // The new turf's sites they would read: those of the categories they read, not already theirs to read.
      const categories = records.access.categories(person, sites);
      let added = (await records.visibleRows(records.db, sites, null))
        .where('t.id', 'in', [...insideIds])
        .where(sql<boolean>`not (t.id in (${visible.select('t.id')}))`);
      if (categories !== 'all')
        added = categories.length
          ? added.where(`t.${sites.categoryColumn}`, 'in', categories)
          : added.where(sql<boolean>`false`);
      after += Number((await added.select(sql<number>`count(*)`.as('n')).executeTakeFirst())?.n ?? 0);
    }
    out.push({
      id: person.id,
      name: person.name,
      role: person.role ? { id: person.role.id, name: person.role.name } : null,
      scoped,
      now,
      after,
    });
  }
  return out;
}

/** The site rule a role is given to scope its members by their turf (the dialog's offer). */
export const TURF_SITE_RULE = TURF_OR_OWN;
