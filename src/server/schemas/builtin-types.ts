import { pluralizeSlug } from '../../common/schema-types.js';
import type { FieldSpec, ResourceDefinition } from '../records/resource.js';
import { fieldSpecFor } from './field-specs.js';
import { isColumn, knownRelationTargets, shippedSchema } from './schema-files.js';

/**
 * What a built-in record type's definition holds besides its schema file: only code. Its name (URL), type,
 * whether it restores, and its fields (kind, label, required, limits, choices, references) come
 * from `schemas/{type}.json` (or `schemas/fixed/`).
 */
export interface BuiltinTypeCode
  extends Omit<ResourceDefinition, 'name' | 'type' | 'singular' | 'restorable' | 'fields'> {
  /**
   * Merged over the specs derived from the file: how special fields are stored (a pivot table, a `virtual` field
   * its hooks write, the shape of its JSON). A field the file does not describe (a list kept from another field,
   * a system column) is given whole here.
   */
  fields?: Record<string, Partial<FieldSpec>>;
}

/**
 * The definition of a built-in record type: the field specs derived from its schema file the way custom fields'
 * are (field-specs.ts fieldSpecFor), with the code's table, hooks and row rules. The file's custom and importer
 * fields are stored schema fields (`customFields`); a read-only field (the attachments list) is presented, never
 * written.
 */
export function builtinType(type: string, code: BuiltinTypeCode): ResourceDefinition {
  const file = shippedSchema(type);
  const targets = knownRelationTargets();
  const fields: Record<string, FieldSpec> = {};
  const readOnly = [...(code.readOnly ?? [])];
  for (const field of file.fields) {
    if (!isColumn(field)) continue;
    if (field.options.read_only) {
      readOnly.push(field.slug);
      continue;
    }
    fields[field.slug] = { ...fieldSpecFor({ ...field, column: true }, targets), ...code.fields?.[field.slug] };
  }
  for (const [slug, spec] of Object.entries(code.fields ?? {})) {
    if (fields[slug]) continue;
    if (!spec.kind) throw new Error(`The ${type} field "${slug}" is not in schemas/${type}.json: give its kind.`);
    fields[slug] = spec as FieldSpec;
  }
  return {
    ...code,
    name: file.resource ?? pluralizeSlug(type),
    type,
    // The type's own name in system messages ('No trade has the id 5.'); the stored schema's name_singular
    // ('Craft') is what people read in the others (records.nameOf).
    singular: sentenceCase(type.replace(/-/g, ' ')),
    restorable: file.restorable,
    readOnly: [...new Set(readOnly)],
    fields,
  };
}

const sentenceCase = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

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
