import { describe, expect, it } from 'vitest';
import { isKnownTarget, suggestTargets, targetsFor } from '../../src/common/import-targets.js';
import { parseCoordinates, parseDate, parseFlag, parseMoney, splitName } from '../../src/common/import-values.js';

const value = <T>(parsed: { ok: true; value: T } | { ok: false; error: string }) =>
  parsed.ok ? parsed.value : `ERROR: ${parsed.error}`;

describe('dates in the forms vendors use', () => {
  it.each([
    ['2026-03-01', '2026-03-01'],
    ['2026-03-01T10:30:00Z', '2026-03-01'],
    ['2026/3/1', '2026-03-01'],
    ['3/1/2026', '2026-03-01'],
    ['03/01/26', '2026-03-01'],
    ['3-1-2026', '2026-03-01'],
    ['3/1/2026 14:30', '2026-03-01'],
    ['Mar 1, 2026', '2026-03-01'],
    ['March 1 2026', '2026-03-01'],
    ['Sept. 30, 2026', '2026-09-30'],
    ['1 Mar 2026', '2026-03-01'],
    ['01-Mar-26', '2026-03-01'],
    ['46082', '2026-03-01'],
    ['12/31/99', '1999-12-31'],
  ])('%s → %s', (input, expected) => {
    expect(value(parseDate(input))).toBe(expected);
  });
  it.each(['31/31/2026', '2/30/2026', 'soon', '2026-13-01', 'TBD', '123'])('refuses %s with a message', (input) => {
    const parsed = parseDate(input);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toContain('is not a date');
  });
});

describe('money', () => {
  it.each([
    ['$1,250,000.00', 1_250_000],
    ['1250000', 1_250_000],
    ['1.25M', 1_250_000],
    ['250K', 250_000],
    ['2B', 2_000_000_000],
    ['(1,000)', -1_000],
    ['-1,000', -1_000],
    ['USD 1,000', 1_000],
    ['$ 12.5', 12.5],
    ['.5', 0.5],
  ])('%s → %d', (input, expected) => {
    expect(value(parseMoney(input))).toBe(expected);
  });
  it.each(['about a million', '1,00', '1.2.3', '$', 'N/A'])('refuses %s', (input) => {
    expect(parseMoney(input).ok).toBe(false);
  });
});

describe('flags, coordinates and names', () => {
  it('reads yes/no flags', () => {
    for (const yes of ['Y', 'yes', 'TRUE', '1', 'x', '✓']) expect(value(parseFlag(yes))).toBe(true);
    for (const no of ['N', 'no', 'false', '0', '-']) expect(value(parseFlag(no))).toBe(false);
    expect(parseFlag('maybe').ok).toBe(false);
  });
  it('reads coordinates and checks their range', () => {
    expect(value(parseCoordinates('34.0522, -118.2437'))).toEqual({ latitude: 34.0522, longitude: -118.2437 });
    expect(value(parseCoordinates('(34.0522 -118.2437)'))).toEqual({ latitude: 34.0522, longitude: -118.2437 });
    expect(parseCoordinates('134, 20').ok).toBe(false);
    expect(parseCoordinates('here').ok).toBe(false);
  });
  it('splits full names', () => {
    expect(splitName('Jane Q. Smith')).toEqual({ first_name: 'Jane Q.', last_name: 'Smith' });
    expect(splitName('Smith, Jane')).toEqual({ first_name: 'Jane', last_name: 'Smith' });
    expect(splitName('Cher')).toEqual({ first_name: 'Cher', last_name: '' });
  });
});

describe('target suggestions from header names', () => {
  it('suggests site targets from Dodge-like and plain headers, each target once', () => {
    const headers = [
      'Dodge ID',
      'Project Name',
      'Address',
      'City',
      'ZIP',
      'Lat',
      'Long',
      'Bid Due Date',
      'Valuation',
      'Project Stage',
      'GC',
      'Contact Email',
      'Notes',
      'Notes (2)',
      'Whatever',
    ];
    expect(suggestTargets(headers, 'site')).toEqual([
      'site.external_id',
      'site.name',
      'site.street',
      'site.city',
      'site.postal_code',
      'site.latitude',
      'site.longitude',
      'site.bid_date',
      'site.estimated_value',
      'site.status',
      'contractor.name',
      'contact_1.email',
      'site.notes_1',
      'site.notes_2',
      '',
    ]);
  });
  it('suggests member targets for a roster', () => {
    expect(
      suggestTargets(['Member #', 'First Name', 'Last Name', 'Local', 'Classification', 'Shop Steward'], 'member'),
    ).toEqual(['member.number', 'member.first_name', 'member.last_name', 'union', 'classification', 'is_steward']);
  });
  it('offers custom fields and knows which targets a type has', () => {
    expect(targetsFor('site', [{ key: 'permit_number', label: 'Permit number' }]).map((t) => t.key)).toContain(
      'custom.permit_number',
    );
    expect(suggestTargets(['Permit Number'], 'site', [{ key: 'permit_number', label: 'Permit number' }])).toEqual([
      'custom.permit_number',
    ]);
    expect(isKnownTarget('site.name', 'member')).toBe(false);
    expect(isKnownTarget('is_steward', 'member')).toBe(true);
    expect(isKnownTarget('', 'site')).toBe(true);
  });
});
