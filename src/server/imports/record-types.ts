import type { ResourceRegistry } from '../records/registry.js';
import type { FieldSpec, PivotStorage, ResourceDefinition } from '../records/resource.js';

/** The definition an import writes through: the registered resource of the record type (its hooks and custom fields). */
export function definitionFor(resources: ResourceRegistry, type: string): ResourceDefinition {
  const def = resources.byType(type);
  if (!def) throw new Error(`No record type "${type}" is known.`);
  return def;
}

/** The pivot field of `def` that links to `table` through `pivotTable` (e.g. the sites' trades), if it has one. */
export function pivotField(fields: Record<string, FieldSpec>, pivotTable: string): string | null {
  for (const [name, spec] of Object.entries(fields)) {
    if (typeof spec.storage === 'object' && (spec.storage as PivotStorage).pivot === pivotTable) return name;
  }
  return null;
}
