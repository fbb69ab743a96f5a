import { z } from 'zod';
import { postalCentre } from '../../imports/postal-centres.js';
import { listUrl } from '../catalogue.js';
import { describeRows, findByName, resolveFilters } from './records.js';
import { failure, guarded, type Tool, type ToolScope, unknownType } from './scope.js';
import { filtersArg } from './search.js';

interface Place {
  label: string;
  latitude: number;
  longitude: number;
}

const KM_PER_MILE = 1.609344;
/** The most records read around a place before the exact distances are worked out. */
const MAX_CANDIDATES = 1_000;

function distanceKm(a: Place, b: { latitude: number; longitude: number }) {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLng = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

const centre = (rows: Array<{ latitude: number | null; longitude: number | null }>) => {
  const placed = rows.filter((r) => r.latitude != null && r.longitude != null);
  if (!placed.length) return null;
  return {
    latitude: placed.reduce((s, r) => s + Number(r.latitude), 0) / placed.length,
    longitude: placed.reduce((s, r) => s + Number(r.longitude), 0) / placed.length,
  };
};

/**
 * Where a place is, from what the person may read: a record ("this" or a named site or contractor), a region (the
 * middle of its bounding box), a city (the middle of the readable sites in it) or a US ZIP code. Nothing is looked
 * up outside the product.
 */
export async function locate(scope: ToolScope, text: string): Promise<Place | string> {
  const name = text.trim();
  if (/^\d{5}$/.test(name)) {
    const point = postalCentre(name);
    return point ? { label: `ZIP ${name}`, ...point } : `The ZIP code ${name} is not known.`;
  }
  if (/^(this|this (site|record|one|place|contractor))$/i.test(name) && scope.context) {
    const info = scope.typeOf(scope.context.type);
    const row = info ? await scope.app.records.show(scope.user, info.def, scope.context.id) : null;
    const point = row ? centre([row as any]) : null;
    return point && row
      ? { label: scope.cite(info!, row).label, ...point }
      : 'The record you have open has no location.';
  }
  const regions = scope.app.resources.get('regions');
  const regionNamed =
    regions && scope.typeOf('region')
      ? (await findByName(scope, regions, name, 2)).filter(
          (r) => String(r.name).toLowerCase() === name.toLowerCase() && r.min_lat != null,
        )
      : [];
  if (regionNamed.length === 1) {
    const [region] = regionNamed;
    return {
      label: region.name,
      latitude: (Number(region.min_lat) + Number(region.max_lat)) / 2,
      longitude: (Number(region.min_lng) + Number(region.max_lng)) / 2,
    };
  }
  const sites = scope.typeOf('site');
  if (sites) {
    const inCity = await scope.app.records.list(scope.user, sites.def, {
      filter: JSON.stringify({ city: name }),
      per_page: 200,
    });
    const point = centre(inCity.data as any);
    if (point) return { label: name, ...point };
  }
  for (const type of ['site', 'contractor']) {
    const info = scope.typeOf(type);
    if (!info) continue;
    const found = await findByName(scope, info.def, name, 2);
    if (found.length === 1 && found[0].latitude != null)
      return { label: scope.cite(info, found[0]).label, ...centre(found as any)! };
  }
  return `I could not place "${name}": name a region, a city with job sites, a ZIP code or a site.`;
}

export const recordsNear: Tool<{
  place: string;
  type?: string;
  radius_km?: number;
  radius_miles?: number;
  filters?: Record<string, unknown>;
  limit?: number;
}> = {
  name: 'records_near',
  description:
    'Records (job sites by default, or contractors) within a distance of a place: a region, a city, a ZIP code, a named site, or "this" (the record the person has open).',
  parameters: {
    type: 'object',
    properties: {
      place: { type: 'string' },
      type: { type: 'string', description: 'site (default) or contractor.' },
      radius_km: { type: 'number', description: 'Default 10 km.' },
      radius_miles: { type: 'number' },
      limit: { type: 'integer', minimum: 1, maximum: 50 },
    },
    required: ['place'],
  },
  args: z.object({
    place: z.string().min(1).max(200),
    type: z.string().max(60).optional(),
    radius_km: z.number().positive().max(500).optional(),
    radius_miles: z.number().positive().max(300).optional(),
    filters: filtersArg,
    limit: z.number().int().min(1).max(50).optional(),
  }),
  run: (args, scope) =>
    guarded(async () => {
      const info = scope.typeOf(args.type ?? 'site');
      if (!info) return unknownType(scope, args.type ?? 'site');
      if (!info.fields.has('latitude')) return failure(`${info.plural} have no location.`);
      const place = await locate(scope, args.place);
      if (typeof place === 'string') return failure(place);
      const radius = args.radius_km ?? (args.radius_miles ? args.radius_miles * KM_PER_MILE : 10);
      const dLat = radius / 111;
      const dLng = radius / (111 * Math.max(Math.cos((place.latitude * Math.PI) / 180), 0.01));
      const box = {
        latitude_gte: place.latitude - dLat,
        latitude_lte: place.latitude + dLat,
        longitude_gte: place.longitude - dLng,
        longitude_lte: place.longitude + dLng,
      };
      const { data } = await scope.app.records.list(scope.user, info.def, {
        filter: JSON.stringify({ ...(await resolveFilters(scope, info, args.filters)), ...box }),
        per_page: MAX_CANDIDATES,
      });
      const near = data
        .map((row) => ({
          row,
          km: distanceKm(place, { latitude: Number(row.latitude), longitude: Number(row.longitude) }),
        }))
        .filter((hit) => hit.km <= radius)
        .sort((a, b) => a.km - b.km);
      const shown = near.slice(0, args.limit ?? 10);
      const described = await describeRows(
        scope,
        info,
        shown.map((hit) => hit.row),
        ['name', 'type', 'city', 'site_status_id'],
      );
      return {
        data: {
          place: place.label,
          radius_km: Math.round(radius * 10) / 10,
          total: near.length,
          list_url: listUrl(info, box),
          records: described.map((record, i) => ({ ...record, distance_km: Math.round(shown[i].km * 10) / 10 })),
        },
        records: shown.map((hit) => scope.cite(info, hit.row)),
      };
    }),
};
