import type { Transaction } from 'kysely';
import type { DB } from '../db/schema.generated.js';
import { ValidationError } from '../http/errors.js';
import type { ResourceDefinition } from '../records/resource.js';
import { registerBuiltinTypes } from '../schemas/builtin-types.js';
import { pivot, ref, schemaBacked } from '../schemas/schema-backed.js';
import { assignRegionSites } from './assign.js';
import { bboxOf, GeometryError, parseAreaGeometry } from './geometry.js';

export const GEOMETRY_TYPES = ['state', 'county', 'postal-code', 'drawn'] as const;

/** Transactions whose region write changed the shape (so its sites are placed again after the write). */
const reshaped = new WeakSet<Transaction<DB>>();

/**
 * Regions (SPEC 7: regions (r) plus POST /colors): a named shape of geometry type state, county, postal-code or
 * drawn (on the map), with a colour, assigned to a team and to people (their turf, docs/security.md). The shape (`geometry`, GeoJSON Polygon or MultiPolygon in WGS 84) is written
 * through this resource but never sent in lists (it can be megabytes): read it from /api/map/regions/{id} or
 * /api/map/regions-geojson. Its bounding box columns are derived from it, and the sites inside it are worked
 * out again whenever it is created, reshaped or restored. Site counts are not part of the record: they depend on
 * which sites the reader may see, so they come from /api/map/regions. Schema-backed like the other record types:
 * fields an administrator adds to the `region` schema are stored in `custom`.
 */
export const regionsResource: ResourceDefinition = schemaBacked({
  name: 'regions',
  type: 'region',
  table: 'regions',
  singular: 'Region',
  fields: {
    name: { kind: 'text', required: true, max: 200 },
    geometry_type: { kind: 'enum', required: true, options: GEOMETRY_TYPES, label: 'geometry type' },
    code: { kind: 'text', max: 40 },
    color: { kind: 'color' },
    geometry: { kind: 'json', max: 20_000_000, filterable: false, sortable: false },
    team_id: ref('teams', 'team'),
    // Turf: the people this region is assigned to (its team's members have it too); kept in region_users, whose
    // foreign key answers for an id of no user.
    user_ids: { kind: 'integer[]', label: 'people', ...pivot('region_users', 'region_id', 'user_id') },
  },
  readOnly: ['min_lat', 'min_lng', 'max_lat', 'max_lng'],
  hidden: ['geometry'],
  search: ['name', 'code'],
  defaultSort: { field: 'name', order: 'asc' },
  softDelete: true,
  restorable: true,
  hooks: {
    beforeWrite(values, ctx) {
      if (!('geometry' in values)) return values;
      reshaped.add(ctx.trx);
      if (values.geometry === null) return { ...values, min_lat: null, min_lng: null, max_lat: null, max_lng: null };
      try {
        let raw = values.geometry;
        if (typeof raw === 'string') {
          try {
            raw = JSON.parse(raw);
          } catch {
            throw new GeometryError('The geometry must be GeoJSON (a Polygon or MultiPolygon).');
          }
        }
        // A whole Feature is accepted too: its geometry is what is kept.
        if (raw && typeof raw === 'object' && (raw as any).type === 'Feature') raw = (raw as any).geometry;
        const geometry = parseAreaGeometry(raw);
        const [minLng, minLat, maxLng, maxLat] = bboxOf(geometry);
        return { ...values, geometry, min_lat: minLat, min_lng: minLng, max_lat: maxLat, max_lng: maxLng };
      } catch (error) {
        if (error instanceof GeometryError) throw new ValidationError({ geometry: [error.message] });
        throw error;
      }
    },
    async afterWrite(record, ctx) {
      if (ctx.action === 'restore' || (ctx.action !== 'delete' && reshaped.has(ctx.trx))) {
        reshaped.delete(ctx.trx);
        await assignRegionSites(ctx.trx, [record.id]);
      }
    },
  },
});

// The `region` schema (schemas/region.json) describes this table: administrators' fields live in `custom`.
registerBuiltinTypes([regionsResource]);
