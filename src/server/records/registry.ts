import type { FieldSpec, ResourceDefinition } from './resource.js';

/** Every resource served by the generic routes, by URL name and by record type. */
export class ResourceRegistry {
  private readonly byName = new Map<string, ResourceDefinition>();

  add(def: ResourceDefinition) {
    if (this.byName.has(def.name)) throw new Error(`Resource ${def.name} is registered twice`);
    this.byName.set(def.name, def);
    return def;
  }

  /** Record types created in the app come and go at run time (src/server/schemas/custom-types.ts). */
  remove(name: string) {
    return this.byName.delete(name);
  }

  get(name: string) {
    return this.byName.get(name);
  }

  byType(type: string) {
    return [...this.byName.values()].find((def) => def.type === type);
  }

  all() {
    return [...this.byName.values()];
  }

  /** The resource whose rows a relation points at: the one on that table (and that scope: a type made in the app). */
  target(references: Pick<NonNullable<FieldSpec['references']>, 'table' | 'scope'>) {
    const { table, scope } = references;
    return this.all().find(
      (def) =>
        def.table === table &&
        (scope ? def.scope?.column === scope.column && String(def.scope.value) === String(scope.value) : !def.scope),
    );
  }
}
