import { plainWords } from '../../common/field-types/words.js';
import { moduleOfSpec } from '../../common/field-types.js';
import { canOnEntity } from '../../common/permissions.js';
import { type FieldChoice, normaliseChoices, type RecordSchema, relationTargets } from '../../common/schema-types.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { humanise } from '../records/fields.js';
import type { FieldKind, FieldSpec, ResourceDefinition } from '../records/resource.js';
import { schemaStore } from '../schemas/schema-store.js';

/** What the assistant knows of one field of a record type: from the schema (names, choices, relations) and the definition (kind). */
export interface FieldInfo {
  slug: string;
  name: string;
  kind: FieldKind;
  /** Dropdown and radio values. */
  choices?: FieldChoice[];
  /** A relation: the resource (`/api/{resource}`) whose record ids the field holds. */
  target?: string;
  filterable: boolean;
  /** One value in the words an answer uses (a choice's label): its field type's `words`. */
  words: (value: unknown) => string;
  /** Its type writes numbers in words of its own ("4 of 5" stars): answers show those rather than the number. */
  worded?: boolean;
}

/** A record type the person may read, as the assistant's tools see it. */
export interface TypeInfo {
  type: string;
  resource: string;
  def: ResourceDefinition;
  singular: string;
  plural: string;
  fields: Map<string, FieldInfo>;
  /** Shipped with the product or made by an administrator in the schema editor. */
  custom: boolean;
}

/** Work on records that has no schema of its own but that people ask about. */
const WORK_TYPES = ['task', 'note'];
/** Record types never offered to the assistant: people, access and the assistant's own records. */
const LEFT_OUT = new Set(['user', 'role', 'feature', 'schema', 'assistant-thread', 'assistant-message']);
const COMMON: Record<string, FieldSpec> = {
  created_at: { kind: 'datetime', label: 'created' },
  updated_at: { kind: 'datetime', label: 'updated' },
};

/**
 * The record types `user` may read (bare permission or any category), built-in and made in the app alike, with the
 * fields their schemas describe. One per request: it reads the schema cache and the field definitions only.
 */
export async function readableTypes(app: AppContext, user: AuthUser): Promise<TypeInfo[]> {
  const snapshot = await schemaStore(app.db).snapshot();
  const byTable = new Map(app.resources.all().map((def) => [def.table, def.name]));
  const targets = relationTargets(snapshot.list);
  const types: TypeInfo[] = [];
  const seen = new Set<string>();
  const add = async (def: ResourceDefinition, schema: RecordSchema | undefined) => {
    if (seen.has(def.type) || LEFT_OUT.has(def.type) || !canOnEntity(user, def.permission ?? def.type, 'read')) return;
    seen.add(def.type);
    // The fields the person's role shows them: the assistant neither names nor asks by a hidden one.
    const specs = await app.records.visibleFields(user, def);
    const fields = new Map<string, FieldInfo>();
    const described = new Map((schema?.fields ?? []).map((field) => [field.slug, field]));
    for (const [slug, spec] of Object.entries<FieldSpec>({ ...specs, ...COMMON })) {
      if (def.hidden?.includes(slug) || spec.storage === 'virtual' || (spec.kind === 'json' && !described.has(slug)))
        continue;
      const field = described.get(slug);
      const target = field?.type === 'relation' ? targets[String(field.options?.target)] : undefined;
      const choices = field ? normaliseChoices(field.options?.choices) : [];
      fields.set(slug, {
        slug,
        name: (field?.name ?? spec.label ?? humanise(slug)).toLowerCase(),
        kind: spec.kind,
        ...(choices.length
          ? { choices }
          : spec.options
            ? { choices: spec.options.map((value) => ({ value, label: humanise(value) })) }
            : {}),
        ...(target && target.value === 'id'
          ? { target: target.resource }
          : spec.references
            ? { target: byTable.get(spec.references.table) }
            : {}),
        ...(field && spec.kind === 'integer' && !spec.references && moduleOfSpec(spec).words !== plainWords
          ? { worded: true }
          : {}),
        filterable: spec.filterable !== false && spec.kind !== 'json',
        words: field
          ? (value) => moduleOfSpec(spec).words(value, field.options ?? {})
          : (value) => (spec.options?.includes(String(value)) ? humanise(String(value)) : plainWords(value)),
      });
    }
    types.push({
      type: def.type,
      resource: def.name,
      def,
      singular: (schema?.name_singular ?? def.singular).toLowerCase(),
      plural: (schema?.name_plural ?? `${def.singular}s`).toLowerCase(),
      fields,
      custom: schema ? !schema.built_in : false,
    });
  };
  for (const schema of snapshot.list) {
    const def = app.resources.byType(schema.type);
    if (def) await add(def, schema);
  }
  for (const type of WORK_TYPES) {
    const def = app.resources.byType(type);
    if (def) await add(def, undefined);
  }
  return types;
}

/** How a record is named in an answer: its name, title or person's name, else its number. */
export function recordLabel(record: Record<string, any>): string {
  const person = [record.first_name, record.last_name].filter(Boolean).join(' ');
  const text = record.name ?? record.title ?? (person || null) ?? record.body ?? null;
  const label = typeof text === 'string' && text.trim() ? text.trim() : `#${record.id}`;
  return label.length > 120 ? `${label.slice(0, 117)}...` : label;
}

/** Where the client shows a record: its show page; tasks and notes open the record they are on. */
export function recordUrl(
  types: readonly TypeInfo[] | ((type: string) => string | undefined),
  info: Pick<TypeInfo, 'type' | 'resource'>,
  record: Record<string, any>,
): string {
  const resourceOf =
    typeof types === 'function' ? types : (type: string) => types.find((t) => t.type === type)?.resource;
  const owner =
    info.type === 'task'
      ? ['taskable_type', 'taskable_id']
      : info.type === 'note'
        ? ['notable_type', 'notable_id']
        : null;
  if (owner) {
    const resource = record[owner[0]] ? resourceOf(record[owner[0]]) : undefined;
    return resource && record[owner[1]] ? `/${resource}/${record[owner[1]]}/show` : `/${info.resource}`;
  }
  return `/${info.resource}/${record.id}/show`;
}

/** The list screen of a type with filters, as the menu links its lists (`/sites?filter={...}`). */
export function listUrl(
  info: Pick<TypeInfo, 'resource'>,
  filter: Record<string, unknown> = {},
  where?: Record<string, unknown>,
): string {
  // The list page's filter, with the view filters (`filters=`) under `filters`: the client sends them as such.
  const all = where ? { ...filter, filters: where } : filter;
  return Object.keys(all).length
    ? `/${info.resource}?filter=${encodeURIComponent(JSON.stringify(all))}`
    : `/${info.resource}`;
}
