import type { AppContext } from '../app-context.js';
import type { FieldSpec, PivotStorage, ResourceDefinition } from '../records/resource.js';
import type { ResourceRegistry } from '../records/registry.js';

/**
 * The definitions an import writes through. The records features register the real ones (with their hooks and
 * the administrator's custom fields); until a type is registered, a stand-in describing the built-in columns of
 * migration 002 is used so imports work on any build. Same row rules: soft delete, `type` as permission category.
 */
const SITE_SOURCES = ['building-trades', 'construct-connect', 'dodge-data', 'manual', 'meps', 'pla', 'uaw'];
const text = (max = 2_000): FieldSpec => ({ kind: 'text', max });
const id = (table: string): FieldSpec => ({ kind: 'integer', min: 1, references: { table, softDelete: true } });
const address = (): Record<string, FieldSpec> => ({
  street: text(200),
  city: text(100),
  county: text(100),
  state: text(60),
  postal_code: text(20),
  latitude: { kind: 'number', min: -90, max: 90 },
  longitude: { kind: 'number', min: -180, max: 180 },
});
const reference = (name: string, type: string, singular: string, table = name.replace(/-/g, '_')): ResourceDefinition => ({
  name,
  type,
  table,
  singular,
  softDelete: true,
  restorable: true,
  fields: { name: { kind: 'text', required: true, max: 100 }, slug: text(100) },
});

const FALLBACKS: Record<string, ResourceDefinition> = {
  site: {
    name: 'sites',
    type: 'site',
    table: 'sites',
    singular: 'Site',
    softDelete: true,
    restorable: true,
    categoryColumn: 'type',
    fields: {
      name: { kind: 'text', required: true, max: 255 },
      type: { kind: 'text', max: 40 },
      external_id: text(100),
      site_status_id: id('site_statuses'),
      ...address(),
      owner: text(255),
      representative: text(255),
      general_contractor_id: id('contractors'),
      bid_date: { kind: 'date' },
      kickoff_date: { kind: 'date' },
      estimated_value: { kind: 'number', min: -1e13, max: 1e13 },
      source: { kind: 'enum', options: SITE_SOURCES },
      notes: text(10_000),
      trade_ids: { kind: 'integer[]', storage: { pivot: 'site_trades', ownKey: 'site_id', otherKey: 'trade_id' } },
    },
  },
  contractor: {
    name: 'contractors',
    type: 'contractor',
    table: 'contractors',
    singular: 'Contractor',
    softDelete: true,
    restorable: true,
    categoryColumn: 'type',
    fields: {
      name: { kind: 'text', required: true, max: 255 },
      type: { kind: 'enum', options: ['general', 'non-union', 'none', 'union'] },
      external_id: text(100),
      phone: { kind: 'phone' },
      email: { kind: 'email' },
      ...address(),
      union_id: id('unions'),
      notes: text(10_000),
      trade_ids: { kind: 'integer[]', storage: { pivot: 'contractor_trades', ownKey: 'contractor_id', otherKey: 'trade_id' } },
    },
  },
  member: {
    name: 'members',
    type: 'member',
    table: 'members',
    singular: 'Member',
    softDelete: true,
    restorable: true,
    fields: {
      first_name: { kind: 'text', required: true, max: 100 },
      last_name: text(100),
      email: { kind: 'email' },
      phone: { kind: 'phone' },
      member_number: text(60),
      classification_id: id('classifications'),
      union_id: id('unions'),
      trade_id: id('trades'),
      contractor_id: id('contractors'),
      is_steward: { kind: 'boolean' },
      joined_at: { kind: 'date' },
      notes: text(10_000),
    },
  },
  contact: {
    name: 'contacts',
    type: 'contact',
    table: 'contacts',
    singular: 'Contact',
    softDelete: true,
    restorable: true,
    fields: {
      first_name: { kind: 'text', required: true, max: 100 },
      last_name: text(100),
      email: { kind: 'email' },
      phone: { kind: 'phone' },
      contractor_id: id('contractors'),
      title: text(200),
    },
  },
  trade: reference('trades', 'trade', 'Trade'),
  union: reference('unions', 'union', 'Union'),
  classification: reference('classifications', 'classification', 'Classification'),
  'site-status': reference('site-statuses', 'site-status', 'Site status'),
};

export type ImportWritableType = keyof typeof FALLBACKS;

export function definitionFor(resources: ResourceRegistry, type: string): ResourceDefinition {
  const def = resources.byType(type) ?? FALLBACKS[type];
  if (!def) throw new Error(`No record type "${type}" is known.`);
  return def;
}

export const definitionOf = (ctx: Pick<AppContext, 'resources'>, type: string) => definitionFor(ctx.resources, type);

/** The pivot field of `def` that links to `table` through `pivotTable` (e.g. the sites' trades), if it has one. */
export function pivotField(fields: Record<string, FieldSpec>, pivotTable: string): string | null {
  for (const [name, spec] of Object.entries(fields)) {
    if (typeof spec.storage === 'object' && (spec.storage as PivotStorage).pivot === pivotTable) return name;
  }
  return null;
}
