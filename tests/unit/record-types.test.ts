import { describe, expect, it } from 'vitest';
import { SCHEMA_FIELD_TYPES, valueKind } from '../../src/common/field-types.js';
import { pluralizeSlug, relationTargets } from '../../src/common/schema-types.js';
import { contactsResource } from '../../src/server/contacts/contacts-resource.js';
import { resourceDefinitions } from '../../src/server/features-index.js';
import { validateInput } from '../../src/server/records/validate.js';
import { fieldSpecFor } from '../../src/server/schemas/field-specs.js';
import { readSchemaFiles } from '../../src/server/schemas/schema-files.js';
import { sitesResource } from '../../src/server/sites/sites-resource.js';

/**
 * One definition per record type: the field specs the server validates a built-in type by are derived from its
 * file in schemas/ through the field-type table, the way a custom field's are.
 */
const files = readSchemaFiles();
const fileOf = (type: string) => files.find((file) => file.type === type)!;
const errorsOf = (
  body: Record<string, unknown>,
  fields = sitesResource.fields,
  mode: 'create' | 'update' = 'create',
) => {
  try {
    validateInput(body, fields, { mode });
    return {};
  } catch (error) {
    return (error as { errors: Record<string, string[]> }).errors;
  }
};

describe('built-in field specs come from schemas/*.json', () => {
  it('every column field of every shipped record type is validated by its type in the file', () => {
    const targets = relationTargets(files);
    for (const file of files) {
      const def = resourceDefinitions.find((candidate) => candidate.type === file.type);
      if (!def) continue; // regions: a definition of its own (regions/)
      expect(def.name, file.type).toBe(file.resource ?? pluralizeSlug(file.type));
      for (const field of file.fields) {
        if (field.category !== 'internal' || field.options.read_only) continue;
        const spec = def.fields[field.slug];
        expect(spec, `${file.type}.${field.slug}`).toBeDefined();
        const target = typeof field.options.target === 'string' ? targets[field.options.target]?.value : undefined;
        expect(spec.kind, `${file.type}.${field.slug}`).toBe(valueKind(field.type, field.options, target));
        expect(Boolean(spec.required), `${file.type}.${field.slug}`).toBe(field.required);
      }
    }
  });

  it("a site's name is required, its source one of the file's choices, its coordinates and lengths within the file's limits", () => {
    const site = fileOf('site');
    const sources = (
      site.fields.find((field) => field.slug === 'source')!.options.choices as Array<{ value: string }>
    ).map((choice) => choice.value);
    expect(sitesResource.fields.source.options).toEqual(sources);

    expect(errorsOf({ type: 'union' })).toEqual({ name: ['The name field is required.'] });
    expect(errorsOf({ name: 'A', type: 'union', source: 'rumour' })).toEqual({
      source: [`The source must be one of: ${sources.join(', ')}.`],
    });
    expect(errorsOf({ name: 'A', type: 'union', source: 'dodge-data' })).toEqual({});
    expect(errorsOf({ name: 'x'.repeat(201), type: 'union' })).toEqual({
      name: ['The name may not be longer than 200 characters.'],
    });
    expect(errorsOf({ name: 'A', type: 'union', latitude: 91 }).latitude).toEqual(['The latitude is too large.']);
    expect(errorsOf({ name: 'A', type: 'union', estimated_value: -1 }).estimated_value).toEqual([
      'The estimated value is too small.',
    ]);
    expect(errorsOf({ name: 'A', type: 'union', bid_date: 'soon' }).bid_date).toEqual([
      'The bid date must be a date (YYYY-MM-DD).',
    ]);
    // The labels are the fields' names in the file.
    expect(errorsOf({ name: 'A', type: 'union', representative: 'x'.repeat(201) }).representative).toEqual([
      'The owner representative may not be longer than 200 characters.',
    ]);
  });

  it('a field whose choices are a list administrators extend holds a slug of that list, checked on write', () => {
    expect(sitesResource.fields.type).toMatchObject({ kind: 'text', required: true, slugOf: 'site_types' });
    expect(contactsResource.fields.status).toMatchObject({ kind: 'text', slugOf: 'contact_statuses' });
    expect(errorsOf({ name: 'A', type: 'castle' })).toEqual({});
  });

  it('special fields keep the storage the code gives them; the rest is the file', () => {
    expect(sitesResource.fields.trade_ids).toMatchObject({
      kind: 'integer[]',
      label: 'trades',
      references: { table: 'trades' },
      storage: { pivot: 'site_trades' },
    });
    expect(sitesResource.fields.contractors).toMatchObject({
      kind: 'json',
      storage: 'virtual',
      sortable: false,
      filterable: false,
    });
    expect(sitesResource.fields.general_contractor_id).toMatchObject({
      kind: 'integer',
      min: 1,
      label: 'general contractor',
      references: { table: 'contractors' },
    });
    expect(sitesResource.readOnly).toEqual(expect.arrayContaining(['attachments', 'contractor_ids', 'region_ids']));
    expect(sitesResource).toMatchObject({ name: 'sites', type: 'site', restorable: true });
  });

  it('a custom field of each type is validated by the same table', () => {
    const targets = relationTargets(files);
    for (const type of SCHEMA_FIELD_TYPES) {
      const options: Record<string, unknown> =
        type === 'dropdown' || type === 'radios'
          ? { choices: [{ value: 'a', label: 'A' }] }
          : type === 'relation'
            ? { target: 'site' }
            : {};
      const spec = fieldSpecFor({ slug: 'x', name: 'X', type, required: false, options, column: false }, targets);
      expect(spec.kind, type).toBe(valueKind(type, options, 'id'));
      // Values computed from the record (created at, updated by...) are not stored.
      expect(spec.storage, type).toBe(spec.computed ? 'virtual' : 'custom');
    }
  });
});
