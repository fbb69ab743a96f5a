import { sql } from 'kysely';
import { CATEGORY_PERMISSIONS } from '../../common/permissions.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { dynamicTables } from '../db/dynamic-tables.js';
import { escapeLike } from '../records/list-query.js';
import type { FieldSpec } from '../records/resource.js';
import { contractorsDefinition, sitesDefinition } from './definitions.js';
import type { MapRegions } from './map-regions.js';
import type { MapService } from './map-service.js';

/**
 * Where to jump for a search text: sites the person may read by name or address, places (a city, or a postal code,
 * among those sites) and regions by name or code. No outside geocoder, so it works offline.
 */
export async function searchMap(ctx: AppContext, service: MapService, regions: MapRegions, user: AuthUser, q: string) {
  const like = `%${escapeLike(q)}%`;
  const data: Array<Record<string, unknown>> = [];
  if (await service.drawable(user, 'sites')) {
    const def = sitesDefinition(ctx);
    // Only the name and address fields the person's role shows are searched and shown.
    const shown = await service.siteFields(user);
    const address = ['street', 'city', 'postal_code'].filter((c) => shown[c]);
    const matched = [
      ...(shown.name ? [sql`t.name`] : []),
      ...(address.length
        ? [
            sql`${sql.join(
              address.map((c) => sql`coalesce(${sql.ref(`t.${c}`)}, '')`),
              sql` || ' ' || `,
            )}`,
          ]
        : []),
    ];
    const sites = matched.length
      ? await (await ctx.records.visibleRows(ctx.db, def, user))
          .select(['t.id', 't.name', 't.street', 't.city', 't.state', 't.postal_code', 't.latitude', 't.longitude'])
          .where('t.latitude', 'is not', null)
          .where((eb) => eb.or(matched.map((column) => eb(column, 'ilike', like))))
          .orderBy(shown.name ? sql`t.name ilike ${escapeLike(q) + '%'}` : sql`t.id`, 'desc')
          .orderBy(shown.name ? 't.name' : 't.id')
          .limit(8)
          .execute()
      : [];
    for (const s of sites as any[]) {
      data.push({
        kind: 'site',
        id: s.id,
        label: shown.name ? s.name : '',
        detail: ['street', 'city', 'state', 'postal_code']
          .filter((c) => shown[c])
          .map((c) => s[c])
          .filter(Boolean)
          .join(', '),
        lat: s.latitude,
        lng: s.longitude,
      });
    }
    const placeBy = ['city', 'postal_code'].filter((c) => shown[c]);
    const place = shown.postal_code
      ? shown.city
        ? sql<string>`case when t.postal_code ilike ${escapeLike(q) + '%'} then t.postal_code else t.city || coalesce(', ' || ${shown.state ? sql`t.state` : sql`null`}, '') end`
        : sql<string>`t.postal_code`
      : sql<string>`t.city || coalesce(', ' || ${shown.state ? sql`t.state` : sql`null`}, '')`;
    const places = placeBy.length
      ? await (await ctx.records.visibleRows(ctx.db, def, user))
          .select([
            place.as('label'),
            sql<number>`count(*)`.as('count'),
            sql<number>`min(t.latitude)`.as('south'),
            sql<number>`max(t.latitude)`.as('north'),
            sql<number>`min(t.longitude)`.as('west'),
            sql<number>`max(t.longitude)`.as('east'),
          ])
          .where('t.latitude', 'is not', null)
          .where((eb) => eb.or(placeBy.map((c) => eb(`t.${c}`, 'ilike', `${escapeLike(q)}%`))))
          .groupBy(sql`1`)
          .orderBy(sql`count(*)`, 'desc')
          .limit(5)
          .execute()
      : [];
    for (const p of places as any[]) {
      if (!p.label) continue;
      data.push({
        kind: 'place',
        label: p.label,
        detail: `${p.count} site${Number(p.count) === 1 ? '' : 's'}`,
        bbox: [p.west, p.south, p.east, p.north],
        lat: (p.south + p.north) / 2,
        lng: (p.west + p.east) / 2,
      });
    }
  }
  for (const r of (await regions.rows(user, { q })).slice(0, 6)) {
    if (r.min_lat === null) continue;
    data.push({
      kind: 'region',
      id: r.id,
      label: r.name,
      detail: r.geometry_type,
      bbox: [r.min_lng, r.min_lat, r.max_lng, r.max_lat],
      lat: (r.min_lat + r.max_lat!) / 2,
      lng: (r.min_lng! + r.max_lng!) / 2,
    });
  }
  return data;
}

/** What the filter drawer offers, limited to what the person may read. */
export async function filterOptions(ctx: AppContext, service: MapService, user: AuthUser) {
  const def = sitesDefinition(ctx);
  const allowed = ctx.records.access.categories(user, def);
  const named = (table: string, extra: string[] = []) =>
    dynamicTables(ctx.db)
      .selectFrom(table)
      .select(['id', 'name', ...extra])
      .where('deleted_at', 'is', null)
      .orderBy('position')
      .orderBy('name')
      .execute();
  const [siteTypes, statuses, phases, buildingTypes, trades] = await Promise.all([
    ctx.db
      .selectFrom('site_types')
      .select(['slug', 'name', 'color'])
      .where('deleted_at', 'is', null)
      .orderBy('position')
      .orderBy('name')
      .execute(),
    named('site_statuses', ['color']),
    named('site_phases'),
    named('building_types'),
    named('trades'),
  ]);
  const fields = await service.siteFields(user);
  const dropdowns = Object.entries(fields)
    .filter(
      ([name, spec]) =>
        (spec.kind === 'enum' || spec.kind === 'enum[]') &&
        name !== 'type' &&
        spec.filterable !== false &&
        spec.options?.length,
    )
    .map(([name, spec]) => ({
      field: name,
      label: spec.label ?? name.replace(/_/g, ' '),
      options: spec.options!.map((o) => ({ id: o, name: spec.choiceLabels?.[o] ?? o })),
    }));
  const dateFields: Record<string, FieldSpec> = { ...fields, created_at: { kind: 'datetime', label: 'created' } };
  const dates = Object.entries(dateFields)
    .filter(([, spec]) => spec.kind === 'date' || spec.kind === 'datetime')
    .map(([name, spec]) => ({ field: name, label: spec.label ?? name.replace(/_/g, ' ') }));
  // A site type the role hides offers no type or category filter (the map refuses them).
  const visibleType = (slug: string) => Boolean(fields.type) && (allowed === 'all' || allowed.includes(slug));
  const contractorCategories = ctx.records.access.categories(user, contractorsDefinition(ctx));
  // The contractor type's choices and labels as its schema names them (none when the role hides it).
  const contractorType = (await ctx.records.visibleFields(user, contractorsDefinition(ctx))).type;
  return {
    site_types: siteTypes
      .filter((t: any) => visibleType(t.slug))
      .map((t: any) => ({ id: t.slug, name: t.name, color: t.color ?? null })),
    categories: CATEGORY_PERMISSIONS.site.filter(visibleType),
    statuses: fields.site_status_id ? statuses : [],
    phases: fields.site_phase_id ? phases : [],
    building_types: fields.building_type_id ? buildingTypes : [],
    trades: fields.trade_ids ? trades : [],
    contractor_types: (contractorType?.options ?? [])
      .filter((id) => contractorCategories === 'all' || contractorCategories.includes(id))
      .map((id) => ({ id, name: contractorType?.choiceLabels?.[id] ?? id })),
    dropdowns,
    dates,
    layers: { sites: await service.drawable(user, 'sites'), contractors: await service.drawable(user, 'contractors') },
  };
}
