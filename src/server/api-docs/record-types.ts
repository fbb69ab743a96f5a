import type { OpenAPIV3_1 } from 'openapi-types';
import type { FieldSpec, ValueKind } from '../../common/field-types.js';
import type { RecordSchema } from '../../common/schema-types.js';
import type { ResourceDefinition } from '../records/resource.js';
import { builtinDefinition } from '../schemas/builtin-types.js';
import { customTypeDefinition } from '../schemas/custom-types.js';
import type { SchemaSnapshot } from '../schemas/schema-store.js';

type JsonSchema = OpenAPIV3_1.SchemaObject;

/** The JSON Schema of a value of each kind as the API sends it (null: no value). */
const VALUE_OF_KIND: Record<ValueKind, JsonSchema> = {
  text: { type: ['string', 'null'] },
  email: { type: ['string', 'null'] },
  phone: { type: ['string', 'null'] },
  url: { type: ['string', 'null'] },
  color: { type: ['string', 'null'] },
  integer: { type: ['integer', 'null'] },
  number: { type: ['number', 'null'] },
  boolean: { type: ['boolean', 'null'] },
  date: { type: ['string', 'null'], format: 'date' },
  datetime: { type: ['string', 'null'], format: 'date-time' },
  enum: { type: ['string', 'null'] },
  'enum[]': { type: ['array', 'null'], items: { type: 'string' } },
  'integer[]': { type: ['array', 'null'], items: { type: 'integer' } },
  json: {},
};

/** A field's value as the API sends it: its kind, its name, its choices (the values written now). */
function valueSchema(slug: string, spec: FieldSpec): JsonSchema {
  const schema: JsonSchema = { ...VALUE_OF_KIND[spec.kind] };
  const described = [spec.name ?? spec.label ?? slug];
  if (spec.type) described.push(`(${spec.type})`);
  if (spec.options?.length) described.push(`One of: ${spec.options.join(', ')}.`);
  schema.description = described.join(' ');
  if (spec.readOnly || spec.computed || spec.computedOver) schema.readOnly = true;
  return schema;
}

/** A field's value as a write may send it: its choices, limits and pattern are checked (422 otherwise). */
function inputSchema(slug: string, spec: FieldSpec): JsonSchema {
  const schema = valueSchema(slug, spec);
  const nullable = !spec.required;
  if (spec.kind === 'enum' && spec.options?.length) {
    schema.enum = nullable ? [...spec.options, null] : [...spec.options];
    delete schema.type;
  }
  if (spec.kind === 'enum[]' && spec.options?.length) Object.assign(schema, { items: { enum: [...spec.options] } });
  const text = ['text', 'email', 'phone', 'url', 'color'].includes(spec.kind);
  if (text && spec.max !== undefined) schema.maxLength = spec.max;
  if (text && spec.min !== undefined) schema.minLength = spec.min;
  if (text && spec.pattern) schema.pattern = spec.pattern.source;
  if ((spec.kind === 'integer' || spec.kind === 'number') && spec.max !== undefined) schema.maximum = spec.max;
  if ((spec.kind === 'integer' || spec.kind === 'number') && spec.min !== undefined) schema.minimum = spec.min;
  if (spec.default !== undefined) schema.default = spec.default;
  return schema;
}

/** One record type as the document describes it: its resource (URL name) and its fields now. */
export interface DescribedType {
  schema: RecordSchema;
  def: ResourceDefinition;
  fields: Record<string, FieldSpec>;
}

/**
 * Every record type now, from the schema files and the types made in the app (the schema store's snapshot): its
 * resource and its fields, built-in and custom.
 */
export function describedTypes(snapshot: SchemaSnapshot): DescribedType[] {
  const types: DescribedType[] = [];
  for (const schema of snapshot.list) {
    const def = builtinDefinition(schema.type) ?? (schema.built_in ? undefined : customTypeDefinition(schema));
    if (!def) continue;
    const fields = { ...snapshot.customSpecs(schema.type), ...def.fields };
    for (const [slug, rules] of Object.entries(snapshot.columnRules(schema.type)))
      if (fields[slug]) fields[slug] = { ...fields[slug], ...rules };
    types.push({ schema, def, fields });
  }
  return types;
}

/** The components a record type adds: `{type}.record` (as read), `{type}.create` and `{type}.update` (as written). */
export function recordTypeComponents({ schema, def, fields }: DescribedType): Record<string, JsonSchema> {
  const hidden = new Set(def.hidden ?? []);
  const readOnly = new Set(def.readOnly ?? []);
  const shown = Object.entries(fields).filter(([slug]) => !hidden.has(slug));
  const writable = shown.filter(
    ([slug, spec]) => !readOnly.has(slug) && !spec.readOnly && !spec.computed && !spec.computedOver,
  );
  const title = schema.name_singular;
  const record: JsonSchema = {
    type: 'object',
    title,
    description: `A ${title} record as the API sends it: its id, its fields (those the reader may see) and the names of its links.`,
    properties: {
      id: { type: 'integer' },
      ...Object.fromEntries(shown.map(([slug, spec]) => [slug, valueSchema(slug, spec)])),
    },
    required: ['id'],
    additionalProperties: true,
  };
  const inputProperties = Object.fromEntries(writable.map(([slug, spec]) => [slug, inputSchema(slug, spec)]));
  const required = writable.filter(([, spec]) => spec.required && spec.default === undefined).map(([slug]) => slug);
  return {
    [`${schema.type}.record`]: record,
    [`${schema.type}.create`]: {
      type: 'object',
      title: `New ${title}`,
      description: `The fields of a new ${title}; the required ones must be sent.`,
      properties: inputProperties,
      ...(required.length ? { required } : {}),
    },
    [`${schema.type}.update`]: {
      type: 'object',
      title: `${title} changes`,
      description: `The fields of a ${title} to change; those not sent keep their values.`,
      properties: inputProperties,
    },
  };
}
