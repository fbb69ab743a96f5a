import { describe, expect, it } from 'vitest';
import { createMapper, type ImporterConfig } from '../../src/server/imports/mapper.js';
import type { FieldSpec } from '../../src/server/records/resource.js';

// The mapper works out what each column means once per file (imports/mapper.ts): every row of the file must still
// be read by its own cells, the meaning of a column the same on the first row and the last.
const fields = {
  name: { kind: 'text' },
  city: { kind: 'text' },
  bid_date: { kind: 'date' },
  permit_no: { kind: 'integer', label: 'permit number' },
} as unknown as Record<string, FieldSpec>;

const importer: ImporterConfig = {
  id: 1,
  name: 'Vendor',
  record_type: 'site',
  key_target: 'site.name',
  create_related: true,
  all_or_nothing: false,
  protected_fields: [],
  defaults: {},
  columns: [
    { header: 'Project', target: 'site.name' },
    { header: 'City', target: 'site.city' },
    { header: 'Bid', target: 'site.bid_date' },
    { header: 'Permit', target: 'custom.permit_no' },
    { header: 'Contact', target: 'contact_2.name' },
    { header: 'Contact email', target: 'contact_2.email' },
    { header: 'GC', target: 'contractor.name' },
    { header: 'GC city', target: 'contractor.city' },
  ],
  rules: [],
};
const headers = ['Project', 'City', 'Bid', 'Permit', 'Contact', 'Contact email', 'GC', 'GC city'];

describe('the import mapper', () => {
  it('reads every row by its own cells with the columns worked out once', () => {
    const mapper = createMapper(importer, headers, fields);
    const first = mapper.map(
      ['Tower', 'Austin', '2026-03-01', '12', 'Ann Lee', 'ann@example.com', 'Acme', 'Dallas'],
      2,
      0,
    );
    const second = mapper.map(['Depot', ' Waco ', 'soon', 'twelve', '', '', 'Bolt', ''], 3, 1);

    expect(first.errors).toEqual([]);
    expect(first.values).toEqual({ name: 'Tower', city: 'Austin', bid_date: '2026-03-01', permit_no: 12 });
    expect(first.contacts).toEqual([{ first_name: 'Ann', last_name: 'Lee', email: 'ann@example.com' }]);
    expect(first.contractor).toEqual({ name: 'Acme', city: 'Dallas' });

    expect(second.values).toEqual({ name: 'Depot', city: 'Waco' });
    expect(second.contacts).toEqual([]);
    expect(second.contractor).toEqual({ name: 'Bolt' });
    // Problems are named by the column's label: the target's, or a custom field's own.
    expect(second.errors).toHaveLength(2);
    expect(second.errors[0]).toMatch(/^Bid date: /);
    expect(second.errors[1]).toBe('Permit number: "twelve" is not a whole number.');
  });

  it('skips a row whose mapped cells are all empty', () => {
    const mapper = createMapper(importer, headers, fields);
    expect(mapper.map(['', ' ', '', '', '', '', '', ''], 4, 2).blank).toBe(true);
  });
});
