import type { AppContext } from '../app-context.js';
import type { ResourceDefinition } from '../records/resource.js';

/**
 * The map reads sites and contractors through the record service's row rules (`visibleRows`), which need
 * their resource definitions. The records feature registers the real ones (with the administrator's custom
 * fields); until it does, these minimal stand-ins describe the built-in columns and the same row rules:
 * soft delete, and `type` as the permission category (`site:read:union`, `contractor:read:non-union`).
 */
export const FALLBACK_SITES: ResourceDefinition = {
  name: 'sites',
  type: 'site',
  table: 'sites',
  singular: 'Site',
  softDelete: true,
  restorable: true,
  categoryColumn: 'type',
  fields: {
    name: { kind: 'text' },
    type: { kind: 'text' },
    site_status_id: { kind: 'integer' },
    site_phase_id: { kind: 'integer' },
    building_type_id: { kind: 'integer' },
    general_contractor_id: { kind: 'integer' },
    city: { kind: 'text' },
    county: { kind: 'text' },
    state: { kind: 'text' },
    postal_code: { kind: 'text' },
    bid_date: { kind: 'date' },
    kickoff_date: { kind: 'date' },
    estimated_value: { kind: 'number' },
    prevailing_wage: { kind: 'boolean' },
    source: { kind: 'enum', options: ['building-trades', 'construct-connect', 'dodge-data', 'manual', 'meps', 'pla', 'uaw'] },
    team_id: { kind: 'integer' },
    user_id: { kind: 'integer' },
  },
};

const FALLBACK_CONTRACTORS: ResourceDefinition = {
  name: 'contractors',
  type: 'contractor',
  table: 'contractors',
  singular: 'Contractor',
  softDelete: true,
  restorable: true,
  categoryColumn: 'type',
  fields: {
    name: { kind: 'text' },
    type: { kind: 'enum', options: ['general', 'non-union', 'none', 'union'] },
    city: { kind: 'text' },
    state: { kind: 'text' },
    union_id: { kind: 'integer' },
  },
};

export function sitesDefinition(ctx: AppContext): ResourceDefinition {
  return ctx.resources.get('sites') ?? ctx.resources.byType('site') ?? FALLBACK_SITES;
}

export function contractorsDefinition(ctx: AppContext): ResourceDefinition {
  return ctx.resources.get('contractors') ?? ctx.resources.byType('contractor') ?? FALLBACK_CONTRACTORS;
}
