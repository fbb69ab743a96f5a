import { describe, expect, it } from 'vitest';
import { applyRules, checkRule, type ImportRule, matchesRule, RULE_OPERATORS } from '../../src/common/import-rules.js';

describe('rule operators', () => {
  it('eq: case-insensitive text, numbers and amounts compared as numbers', () => {
    expect(matchesRule('Hospital', 'eq', 'hospital')).toBe(true);
    expect(matchesRule(' hospital ', 'eq', 'Hospital')).toBe(true);
    expect(matchesRule('Hospitals', 'eq', 'hospital')).toBe(false);
    expect(matchesRule('$1,000', 'eq', '1000')).toBe(true);
    expect(matchesRule('1000.00', 'eq', '1000')).toBe(true);
    expect(matchesRule(undefined, 'eq', '')).toBe(true);
  });

  it('neq: the opposite of eq', () => {
    expect(matchesRule('Hospital', 'neq', 'hospital')).toBe(false);
    expect(matchesRule('School', 'neq', 'hospital')).toBe(true);
    expect(matchesRule('1,000', 'neq', '1000')).toBe(false);
  });

  it('gt, gte, lt, lte: numbers (money forms and dates too); false when either side is not a number', () => {
    expect(matchesRule('2,000,000', 'gt', '$1,000,000')).toBe(true);
    expect(matchesRule('1000000', 'gt', '1000000')).toBe(false);
    expect(matchesRule('1000000', 'gte', '1000000')).toBe(true);
    expect(matchesRule('999,999', 'gte', '1M')).toBe(false);
    expect(matchesRule('50000', 'lt', '100000')).toBe(true);
    expect(matchesRule('100000', 'lt', '100000')).toBe(false);
    expect(matchesRule('100000', 'lte', '100000')).toBe(true);
    expect(matchesRule('(500)', 'lt', '0')).toBe(true);
    expect(matchesRule('2026-03-01', 'gt', '2/28/2026')).toBe(true);
    expect(matchesRule('Mar 1, 2026', 'lte', '2026-03-01')).toBe(true);
    expect(matchesRule('lots', 'gt', '5')).toBe(false);
    expect(matchesRule('', 'lt', '5')).toBe(false);
    expect(matchesRule('10', 'gt', 'abc')).toBe(false);
  });

  it('in: a comma-separated list, case-insensitive, spaces ignored', () => {
    expect(matchesRule('library', 'in', 'School, Library ,Hospital')).toBe(true);
    expect(matchesRule('Lib', 'in', 'School, Library')).toBe(false);
    expect(matchesRule('', 'in', 'a,,b')).toBe(false);
  });

  it('string-contains, string-start, string-end: case-insensitive', () => {
    expect(matchesRule('New ELECTRICAL service', 'string-contains', 'electrical')).toBe(true);
    expect(matchesRule('New plumbing', 'string-contains', 'electrical')).toBe(false);
    expect(matchesRule('Solar farm', 'string-start', 'SOLAR')).toBe(true);
    expect(matchesRule('Big solar farm', 'string-start', 'solar')).toBe(false);
    expect(matchesRule('Parking Garage', 'string-end', 'garage')).toBe(true);
    expect(matchesRule('Garage door', 'string-end', 'garage')).toBe(false);
    expect(matchesRule(null, 'string-contains', '')).toBe(true);
  });

  it('covers exactly the operators of SPEC section 3', () => {
    expect([...RULE_OPERATORS]).toEqual([
      'eq',
      'neq',
      'gt',
      'gte',
      'lt',
      'lte',
      'in',
      'string-contains',
      'string-start',
      'string-end',
    ]);
  });
});

describe('the trade-set action', () => {
  const rules: ImportRule[] = [
    {
      source: 'Description',
      operator: 'string-contains',
      value: 'electrical',
      action: 'trade-set',
      action_value: 'Electrical',
    },
    {
      source: 'Description',
      operator: 'string-contains',
      value: 'plumbing',
      action: 'trade-set',
      action_value: 'Plumbing, Pipefitters',
    },
    { source: 'Value', operator: 'gte', value: '1M', action: 'trade-set', action_value: 'electrical' },
  ];
  it('adds the named trades of every matching rule once, in rule order', () => {
    const cells: Record<string, string> = { Description: 'Electrical and plumbing work', Value: '$2,000,000' };
    expect(applyRules(rules, (source) => cells[source]).trades).toEqual(['Electrical', 'Plumbing', 'Pipefitters']);
  });
  it('adds nothing when no rule matches or the column is missing', () => {
    expect(applyRules(rules, () => undefined).trades).toEqual([]);
  });
  it('checks a rule: operator, column, trade, comparable value', () => {
    expect(
      checkRule({ source: 'A', operator: 'eq', value: 'x', action: 'trade-set', action_value: 'Electrical' }),
    ).toEqual({});
    expect(
      Object.keys(checkRule({ source: '', operator: 'like' as any, action: 'other' as any, action_value: '' })).sort(),
    ).toEqual(['action', 'action_value', 'operator', 'source']);
    expect(
      checkRule({ source: 'A', operator: 'gt', value: 'many', action: 'trade-set', action_value: 'X' }).value,
    ).toBeTruthy();
  });
});
