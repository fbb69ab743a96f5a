/** The field dialog's live check of a formula (common field-types/formula.ts formulaCheck): the server's own checks. */
import { describe, expect, it } from 'vitest';
import { formulaCheck } from '../../src/common/field-types.js';

const FIELDS = [
  { slug: 'estimated_value', name: 'Estimated value', type: 'number', options: {}, kind: 'number' as const },
  { slug: 'contractor', name: 'Contractor', type: 'text', options: {}, kind: 'text' as const },
];

describe('formulaCheck', () => {
  it('gives the type of value and the value on a record', () => {
    const checked = formulaCheck('ROUND({Estimated value} * 1.1, 0)', 'markup', FIELDS);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.result).toBe('number');
    expect(checked.value({ estimated_value: 1000 })).toBe(1100);
    expect(checked.value({ estimated_value: null })).toBeNull();
  });

  it('names the place of an error, as the server does', () => {
    expect(formulaCheck('{Estimated valu} + 1', 'markup', FIELDS)).toEqual({
      ok: false,
      error: expect.stringMatching(/Unknown field 'Estimated valu' at 1/),
    });
    expect(formulaCheck('{Contractor} * 2', 'markup', FIELDS)).toMatchObject({ ok: false });
    expect(formulaCheck('1 +', 'markup', FIELDS)).toMatchObject({ ok: false, error: expect.stringMatching(/at \d+/) });
  });
});
