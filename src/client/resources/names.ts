/**
 * Record types by name: the react-admin resource (the /api path) of a type, the type of a resource, and what a
 * relation field may point at. All of it comes from the record types GET /api/schemas sends (`setRecordTypes`,
 * called whenever they load): a type's `resource`, and the relation targets the types offer
 * (common/schema-types.ts relationTargets, the same derivation the server validates with). Resources that are not
 * record types (users, roles, imports...) are the permission entities of common/permission-catalogue.ts, at
 * their plural path.
 */
import { PERMISSION_ENTITIES } from '../../common/permission-catalogue';
import {
  pluralizeSlug,
  type RelationSource,
  type RelationTargetInfo,
  relationTargets,
} from '../../common/schema-types';

interface RecordTypeName {
  type: string;
  resource?: string;
}

/** The assistant's resources are nested under /api/assistant. */
const NESTED: Record<string, string> = {
  'assistant-thread': 'assistant/threads',
  'assistant-message': 'assistant/messages',
};

let byType = new Map<string, string>();
let byResource = new Map<string, string>();
let targets: Record<string, RelationTargetInfo> = relationTargets([]);
/** Type -> its relation fields -> the resource each points at (by id). */
let relationFields = new Map<string, ReadonlyMap<string, string>>();

/** Index the record types just loaded (GET /api/schemas, and the fixed ones of records/schema.ts). */
export function setRecordTypes(schemas: ReadonlyArray<RecordTypeName & Partial<RelationSource>>): void {
  byType = new Map(schemas.map((schema) => [schema.type, schema.resource ?? pluralizeSlug(schema.type)]));
  byResource = new Map([...byType].map(([type, resource]) => [resource, type]));
  const withFields = schemas.filter((schema): schema is RelationSource & RecordTypeName =>
    Array.isArray(schema.fields),
  );
  targets = relationTargets(withFields);
  relationFields = new Map(
    withFields.map((schema) => [
      schema.type,
      new Map(
        schema.fields.flatMap((field) => {
          const target = relationTarget(field.options?.target);
          return target && target.value === 'id' ? [[field.slug, target.resource] as const] : [];
        }),
      ),
    ]),
  );
}

/** The relation fields of `type` that hold ids, with the resource each points at (`site`: general_contractor_id -> contractors). */
export function relationResources(type: string): ReadonlyMap<string, string> {
  return relationFields.get(type) ?? new Map();
}

/** `site` -> `sites`, `schema-field` -> `schema-fields`, `assistant-thread` -> `assistant/threads`. */
export function resourceForType(type: string): string {
  return byType.get(type) ?? NESTED[type] ?? pluralizeSlug(type);
}

/** `sites` -> `site`; undefined for names that are neither record types nor permission entities. */
export function typeForResource(resource: string): string | undefined {
  const known = byResource.get(resource) ?? Object.entries(NESTED).find(([, path]) => path === resource)?.[0];
  return known ?? PERMISSION_ENTITIES.find((entity) => pluralizeSlug(entity) === resource);
}

/** What a relation to `target` points at, or undefined when no record type offers it. */
export function relationTarget(target: unknown): RelationTargetInfo | undefined {
  return typeof target === 'string' && Object.hasOwn(targets, target) ? targets[target] : undefined;
}

/** Every relation target the loaded record types offer, by key. */
export function relationTargetList(): Array<[string, RelationTargetInfo]> {
  return Object.entries(targets);
}
