import { beforeAll, describe, expect, it } from 'vitest';
import { FIELD_TYPES, fieldTypeUI } from '../../../src/client/records/fieldTypes';
import {
  addressLine,
  choiceLabel,
  defaultColumns,
  describeField,
  formatNumber,
  socialNetwork,
} from '../../../src/client/records/fieldTypes/describe';
import {
  editableFields,
  FIXED_SCHEMAS,
  type RecordSchema,
  recordLabel,
  relatedFields,
  schemaForResource,
  writableValues,
} from '../../../src/client/records/schema';
import { setRecordTypes } from '../../../src/client/resources/names';
import { SCHEMA_FIELD_TYPES, type SchemaField } from '../../../src/common/schema-types';
import { readSchemaFiles } from '../../../src/server/schemas/schema-files.js';

const field = (
  slug: string,
  type: SchemaField['type'],
  options: Record<string, unknown> = {},
  extra: Partial<SchemaField> = {},
) =>
  ({
    id: slug.length,
    schema_id: 1,
    slug,
    name: slug.replace(/_/g, ' '),
    type,
    category: 'internal',
    internal: true,
    column: true,
    required: false,
    options,
    position: 0,
    ...extra,
  }) as SchemaField;

// Relation targets come from the record types GET /api/schemas sends: here, the shipped schema files.
beforeAll(() => setRecordTypes(readSchemaFiles()));

describe('the field type table', () => {
  it('has an input, a display and a column for every SPEC field type', () => {
    for (const type of SCHEMA_FIELD_TYPES) {
      const ui = FIELD_TYPES[type];
      expect(ui, type).toBeDefined();
      expect(typeof ui.Input, type).toBe('function');
      expect(typeof ui.Field, type).toBe('function');
      expect(typeof ui.Column, type).toBe('function');
    }
    expect(fieldTypeUI('no-such-type')).toBe(FIELD_TYPES.text);
  });

  it('columns sort by their field unless the value is a list or structured', () => {
    expect(FIELD_TYPES.text.Column(describeField(field('city', 'text')))).toMatchObject({
      source: 'city',
      label: 'city',
      disableSort: false,
    });
    expect(
      FIELD_TYPES.relation.Column(describeField(field('tag_ids', 'relation', { target: 'tag', multiple: true })))
        .disableSort,
    ).toBe(true);
    expect(FIELD_TYPES.addresses.Column(describeField(field('addresses', 'addresses'))).disableSort).toBe(true);
    expect(
      FIELD_TYPES.attachment.Column(describeField(field('attachments', 'attachment', { read_only: true }))).disableSort,
    ).toBe(true);
  });

  it('filters use the list query operators of docs/api.md', () => {
    const sources = (type: SchemaField['type'], options: Record<string, unknown> = {}) =>
      describeField(field('x', type, options)).filters.map((spec) => spec.source);
    expect(sources('text')).toEqual(['x_like']);
    expect(sources('email')).toEqual(['x_like']);
    expect(sources('textarea')).toEqual(['x_like']);
    expect(sources('addresses')).toEqual(['x_like']);
    expect(sources('date')).toEqual(['x_gte', 'x_lte']);
    expect(sources('datetime')).toEqual(['x_gte', 'x_lte']);
    expect(sources('estimated-hours')).toEqual(['x_gte', 'x_lte']);
    expect(sources('text', { input: 'money' })).toEqual(['x_gte', 'x_lte']);
    expect(sources('boolean')).toEqual(['x']);
    expect(sources('prevailing-wage')).toEqual(['x']);
    expect(sources('dropdown', { choices: ['a', 'b'] })).toEqual(['x']);
    expect(sources('radios', { choices: ['a', 'b'] })).toEqual(['x']);
    expect(sources('relation', { target: 'trade' })).toEqual(['x']);
    expect(sources('relation', { target: 'site-city' })).toEqual(['x']);
    expect(sources('attachment')).toEqual(['x_null']);
    expect(sources('attachment', { read_only: true })).toEqual([]);
    expect(sources('relation', { target: 'contractor', multiple: true, with_trade: true })).toEqual(['contractor_ids']);
  });
});

describe('describeField', () => {
  it('reads choices, orientation, relation targets and number formats from the options', () => {
    const status = describeField(
      field('status', 'radios', { choices: [{ value: 'open', label: 'Open' }, 'closed'], orientation: 'horizontal' }),
    );
    expect(status.choices).toEqual([
      { id: 'open', name: 'Open' },
      { id: 'closed', name: 'closed' },
    ]);
    expect(status.orientation).toBe('horizontal');
    expect(choiceLabel(status, 'open')).toBe('Open');
    expect(choiceLabel(status, 'other')).toBe('other');

    const union = describeField(field('union_id', 'relation', { target: 'union' }));
    expect(union.reference).toMatchObject({ resource: 'unions', value: 'id', entity: 'union' });
    const city = describeField(field('city', 'relation', { target: 'site-city' }));
    expect(city.reference).toMatchObject({ resource: 'sites', options: 'site-cities', value: 'text', entity: 'site' });
    expect(describeField(field('x', 'relation', { target: 'nowhere' })).reference).toBeUndefined();

    expect(describeField(field('estimated_value', 'text', { input: 'money' })).number).toBe('money');
    expect(describeField(field('latitude', 'text', { input: 'number', step: 0.000001 }))).toMatchObject({
      number: 'number',
      step: 0.000001,
    });
    expect(describeField(field('estimated_hours', 'estimated-hours')).number).toBe('hours');
    expect(describeField(field('attachments', 'attachment', { read_only: true })).readOnly).toBe(true);
  });

  it('picks good default columns', () => {
    const descriptors = [
      field('name', 'text'),
      field('notes', 'note'),
      field('tag_ids', 'relation', { target: 'tag', multiple: true }),
      field('city', 'text'),
      field('hidden', 'text', { hide_in_list: true }),
    ].map(describeField);
    expect(defaultColumns(descriptors)).toEqual(['name', 'city']);
    expect(defaultColumns(descriptors, 1)).toEqual(['name']);
  });

  it('formats numbers, social links and addresses', () => {
    expect(formatNumber(38800000, 'money')).toBe('$38,800,000');
    expect(formatNumber(60300, 'hours')).toBe('60,300 h');
    expect(formatNumber('', 'number')).toBe('');
    expect(socialNetwork('https://www.facebook.com/local12')).toBe('facebook');
    expect(socialNetwork('https://x.com/local12')).toBe('twitter');
    expect(socialNetwork('not a url')).toBeNull();
    expect(addressLine({ street: '291 Main St', city: 'Los Angeles', state: 'CA', postal_code: '90026' })).toBe(
      '291 Main St, Los Angeles, CA 90026',
    );
  });
});

describe('schema helpers', () => {
  const site = {
    id: 16,
    type: 'site',
    name_singular: 'Site',
    name_plural: 'Sites',
    resource: 'sites',
    built_in: true,
    restorable: true,
    custom: true,
    position: 0,
    actions: [],
    fields: [
      field('name', 'text'),
      field('type', 'dropdown', { choices: ['union'] }),
      field('attachments', 'attachment', { read_only: true }),
      field('permit_number', 'text', {}, { column: false, category: 'custom' }),
    ],
  } as RecordSchema;

  it('sends only the editable fields of the schema, and the updated_at the form opened with', () => {
    expect(editableFields(site).map((f) => f.slug)).toEqual(['name', 'type', 'permit_number']);
    const values = {
      id: 3,
      name: 'Depot',
      type: 'union',
      attachments: [{ id: 1 }],
      contractor_ids: [5],
      permit_number: 'P-1',
      updated_at: '2026-01-02T00:00:00.000Z',
      created_at: 'x',
    };
    expect(writableValues(values, site)).toEqual({ name: 'Depot', type: 'union', permit_number: 'P-1' });
    expect(writableValues(values, site, '2026-01-01T00:00:00.000Z')).toEqual({
      name: 'Depot',
      type: 'union',
      permit_number: 'P-1',
      updated_at: '2026-01-01T00:00:00.000Z',
    });
  });

  it('names records, finds schemas (synthetic ones too) and related fields', () => {
    expect(recordLabel({ id: 1, name: 'Depot' })).toBe('Depot');
    expect(recordLabel({ id: 2, title: 'Late pay' })).toBe('Late pay');
    expect(recordLabel({ id: 3, first_name: 'Ana', last_name: 'Lopez' })).toBe('Ana Lopez');
    expect(recordLabel({ id: 4 })).toBe('#4');
    expect(schemaForResource([site], 'sites')?.type).toBe('site');
    expect(schemaForResource([site], 'tags')).toBe(FIXED_SCHEMAS[0]);
    expect(schemaForResource([site], 'nothing')).toBeUndefined();
    const contact = {
      ...site,
      id: 5,
      type: 'contact',
      resource: 'contacts',
      fields: [field('site_ids', 'relation', { target: 'site', multiple: true })],
    } as RecordSchema;
    const withTrade = {
      ...site,
      fields: [field('contractors', 'relation', { target: 'contractor', multiple: true, with_trade: true })],
    } as RecordSchema;
    expect(relatedFields([site, contact], 'site').map((r) => `${r.schema.type}.${r.target}`)).toEqual([
      'contact.site_ids',
    ]);
    expect(relatedFields([withTrade], 'contractor').map((r) => r.target)).toEqual(['contractor_ids']);
  });
});
