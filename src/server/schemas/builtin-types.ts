import type { ResourceDefinition } from '../records/resource.js';

/**
 * The resources whose record type ships with the product, by type (`site` -> the sites definition). Filled once
 * by features-index.ts; the schema-field rules use it to know a type's table and which names its own fields take.
 */
const builtins = new Map<string, ResourceDefinition>();

export function registerBuiltinTypes(definitions: readonly ResourceDefinition[]) {
  for (const def of definitions) if (!builtins.has(def.type)) builtins.set(def.type, def);
}

export function builtinDefinition(type: string): ResourceDefinition | undefined {
  return builtins.get(type);
}

export function builtinTypes(): string[] {
  return [...builtins.keys()];
}
