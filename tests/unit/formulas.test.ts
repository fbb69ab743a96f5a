/**
 * The formula language (src/common/formulas/): problems named at their place, circles named, and the JavaScript side
 * of the functions where JavaScript and SQL differ by default (rounding half away from zero, months that end early,
 * three-valued AND/OR, blanks). tests/api/formula-fields.test.ts compares the JavaScript with the SQL on a database.
 */
import { describe, expect, it } from 'vitest';
import { checkFormula, evaluateFormula, type FormulaField } from '../../src/common/formulas/formula.js';

const FIELDS: FormulaField[] = [
  { slug: 'bid_amount', name: 'Bid amount', type: 'number' },
  { slug: 'start', name: 'Start date', type: 'date' },
  { slug: 'note', name: 'Note', type: 'text' },
  { slug: 'flag', name: 'Flag', type: 'boolean' },
  { slug: 'tags', name: 'Tags', type: null },
  { slug: 'a', name: 'A', type: null, expression: 'b + 1' },
  { slug: 'b', name: 'B', type: null, expression: 'bid_amount * 2' },
];
const problem = (expression: string, self = 'x') => {
  try {
    checkFormula(expression, self, FIELDS);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};
const value = (expression: string, values: Record<string, unknown> = {}) =>
  evaluateFormula(checkFormula(expression, 'x', FIELDS).tree, values);

describe('formula checks', () => {
  it('name the place of a problem, counted from 1', () => {
    expect(problem('ROUND(bid_amont * 1.1, 0)')).toBe("Unknown field 'bid_amont' at 7.");
    expect(problem('{Bid amount} + {Bid amont}')).toBe("Unknown field 'Bid amont' at 16.");
    expect(problem('bid_amount +')).toMatch(/at 13\.$/);
    expect(problem('note > 3')).toBe('> compares two values of one type, not a text with a number at 8.');
    expect(problem('LEN(tags)')).toMatch(/holds a list or a structure: a formula cannot use it at 5\./);
    expect(problem('FOO(1)')).toBe('Unknown function FOO at 1.');
    expect(problem('1; 2')).toMatch(/one expression/);
    expect(problem('flag < TRUE')).toMatch(/does not compare yes\/no values/);
  });

  it('refuse a formula that uses itself or comes back to itself, naming the chain', () => {
    expect(problem('b * 2', 'b')).toBe("The formula cannot use its own field 'B' at 1.");
    expect(problem('a + 1', 'b')).toMatch(/circle: B → A → B at 1\.$/);
  });

  it('give the type of their value and the stored fields they read', () => {
    const checked = checkFormula('IF({Bid amount} > 10, "big", note)', 'x', FIELDS);
    expect(checked.result).toBe('text');
    expect(checked.uses.sort()).toEqual(['bid_amount', 'note']);
    expect(checkFormula('a', 'x', FIELDS).uses).toEqual(['bid_amount']);
  });
});

describe('formula values in JavaScript', () => {
  it('round half away from zero at the digits asked, without floating point errors', () => {
    expect(value('ROUND(1.005, 2)')).toBe(1.01);
    expect(value('ROUND(-2.5, 0)')).toBe(-3);
    expect(value('ROUND(1234, -2)')).toBe(1200);
    expect(value('0.1 + 0.2')).toBe(0.3);
  });

  it('treat blanks as SQL does', () => {
    expect(value('bid_amount + 1')).toBe(null);
    expect(value('bid_amount / 0', { bid_amount: 4 })).toBe(null);
    expect(value('note & "!"')).toBe('!');
    expect(value('MAX(bid_amount, 3)')).toBe(3);
    expect(value('AND(flag, FALSE)')).toBe(false);
    expect(value('AND(flag, TRUE)')).toBe(null);
    expect(value('OR(flag, TRUE)')).toBe(true);
    expect(value('IF(flag, 1, 2)')).toBe(2);
    expect(value('ISBLANK(note)', { note: '' })).toBe(true);
  });

  it('work with dates as PostgreSQL does', () => {
    expect(value('DATEADD(start, 1, "months")', { start: '2024-01-31' })).toBe('2024-02-29');
    expect(value('DATEADD(start, -1, "years")', { start: '2024-02-29' })).toBe('2023-02-28');
    expect(value('DATE(2024, 2, 30)')).toBe('2024-03-01');
    expect(value('DATE(2024, 14, 1)')).toBe('2025-02-01');
    expect(value('DAYS(start, DATE(2024, 1, 1))', { start: '2024-03-01' })).toBe(60);
    expect(value('YEAR(start) & "-" & MONTH(start)', { start: '2024-03-01' })).toBe('2024-3');
  });

  it('give a blank for a date past years 1 to 9999, where SQL would raise "out of range"', () => {
    expect(value('DATE(1, 1, 1)')).toBe('0001-01-01');
    expect(value('DATE(99, 2, 29)')).toBe('0099-03-01');
    expect(value('DATE(9999, 12, 31)')).toBe('9999-12-31');
    expect(value('DATE(9999, 12, 32)')).toBe(null);
    expect(value('DATE(2024, -1000000, 1)')).toBe(null);
    expect(value('DATE(1, 1, 0)')).toBe(null);
    expect(value('DATEADD(start, 1, "days")', { start: '9999-12-31' })).toBe(null);
    expect(value('DATEADD(start, -1, "weeks")', { start: '0001-01-03' })).toBe(null);
    expect(value('DATEADD(start, 7975, "years")', { start: '2024-02-29' })).toBe('9999-02-28');
    expect(value('DATEADD(start, 7976, "years")', { start: '2024-02-29' })).toBe(null);
    expect(value('DATEADD(start, -1000000, "months")', { start: '2024-02-29' })).toBe(null);
  });
});
