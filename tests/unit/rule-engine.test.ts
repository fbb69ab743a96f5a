import jsonLogic from 'json-logic-js';
import { describe, expect, it, vi } from 'vitest';
import { compileBlock, evaluateLogic } from '../../src/common/form-logic/index.js';
import { compileRule, RULE_OPERATORS } from '../../src/common/import-rules.js';
import {
  compileCondition,
  conditionValueProblem,
  evaluate,
  FORM_OPERATORS,
  type JsonLogic,
  LOGIC_OPERATORS,
  type LogicOperator,
  operatorsFor,
  read,
} from '../../src/common/rule-engine/index.js';
import type { LogicBlock } from '../../src/common/schema-types.js';

/**
 * The one rule engine (src/common/rule-engine): form logic conditions and importer rules compile to plain JSON Logic,
 * which json-logic-js evaluates (the custom operations are registered once, by the engine).
 */
const fields = [
  { id: 1, slug: 'outcome' },
  { id: 2, slug: 'workers_seen' },
  { id: 3, slug: 'visited_on' },
  { id: 4, slug: 'detail' },
  { id: 5, slug: 'notes' },
];
const quiet = { logger: () => {} };
const block = (partial: Partial<LogicBlock>): LogicBlock => ({
  trigger: 'always',
  conditions: [],
  actions: [],
  ...partial,
});
const when = (source: number, operator: LogicOperator, value: string | null = null) => ({
  source: `field:${source}`,
  operator,
  value,
});

/** Compiles one condition over `{"var": "value"}` and evaluates it with the bare json-logic-js. */
function holds(operator: LogicOperator, actual: unknown, expected: string | null = null): boolean {
  const logic = compileCondition(operator, read('value'), expected);
  // Plain JSON: what is stored or sent could be evaluated anywhere json-logic-js runs.
  expect(JSON.parse(JSON.stringify(logic))).toEqual(logic);
  const result = jsonLogic.truthy(jsonLogic.apply(logic, { value: actual }));
  expect(evaluate(logic, { value: actual })).toBe(result);
  return result;
}

describe('form logic operators compile to JSON Logic', () => {
  it('the SPEC five compare as text, case-sensitively, a missing field counting as empty text', () => {
    expect(compileCondition('equals', read('1'), 'closed')).toEqual({
      '===': [{ 'as-text': [{ var: '1' }] }, 'closed'],
    });
    expect(holds('equals', 'closed', 'closed')).toBe(true);
    expect(holds('equals', 'Closed', 'closed')).toBe(false);
    expect(holds('equals', 3, '3')).toBe(true);
    expect(holds('equals', undefined, '')).toBe(true);
    expect(holds('not-equals', 'open', 'closed')).toBe(true);
    expect(holds('not-equals', null, '')).toBe(false);
    expect(holds('contains', 'electrical work', 'trical')).toBe(true);
    expect(holds('contains', undefined, '')).toBe(true);
    expect(holds('contains', ['a', 'b'], 'a,b')).toBe(true);
    expect(holds('starts-with', 'union-pla', 'union')).toBe(true);
    expect(holds('starts-with', 'non-union', 'union')).toBe(false);
    expect(holds('ends-with', 'non-union', 'union')).toBe(true);
    expect(holds('ends-with', undefined, 'union')).toBe(false);
  });

  it('greater-than, at-least, less-than, at-most compare numbers; a value that is not a number never matches', () => {
    expect(compileCondition('greater-than', read('2'), '4')).toEqual({
      and: [{ '!==': [{ 'as-number': [{ var: '2' }] }, null] }, { '>': [{ 'as-number': [{ var: '2' }] }, 4] }],
    });
    expect(holds('greater-than', 5, '4')).toBe(true);
    expect(holds('greater-than', '10', '9')).toBe(true); // as numbers, not as text ('10' < '9')
    expect(holds('greater-than', 4, '4')).toBe(false);
    expect(holds('at-least', 4, '4')).toBe(true);
    expect(holds('at-least', '1,250', '1000')).toBe(true);
    expect(holds('less-than', 0, '1')).toBe(true);
    expect(holds('less-than', -2.5, '-2')).toBe(true);
    expect(holds('at-most', 1, '1')).toBe(true);
    expect(holds('at-most', 2, '1')).toBe(false);
    // Missing or not a number: neither more nor less (JSON Logic alone would take null as 0).
    expect(holds('less-than', undefined, '1')).toBe(false);
    expect(holds('less-than', '', '1')).toBe(false);
    expect(holds('greater-than', 'many', '1')).toBe(false);
    expect(holds('greater-than', 5, 'lots')).toBe(false);
    expect(compileCondition('greater-than', read('2'), 'lots')).toBe(false);
  });

  it('before and after compare dates by day', () => {
    expect(holds('before', '2025-12-31', '2026-01-01')).toBe(true);
    expect(holds('before', '2026-01-01', '2026-01-01')).toBe(false);
    expect(holds('after', '2026-01-02', '2026-01-01')).toBe(true);
    expect(holds('after', '2026-03-01T10:00:00.000Z', '2026-02-28')).toBe(true);
    expect(holds('after', '2026-03-01T10:00:00.000Z', '2026-03-01')).toBe(false);
    expect(holds('before', '3/1/2026', '2026-03-02')).toBe(true);
    expect(holds('before', undefined, '2026-01-01')).toBe(false);
    expect(holds('after', 'someday', '2026-01-01')).toBe(false);
  });

  it('is-empty and is-not-empty: missing, null, blank text, an empty list or object are empty; false and 0 are not', () => {
    for (const empty of [undefined, null, '', '   ', [], {}, ['']]) {
      expect(holds('is-empty', empty), JSON.stringify(empty)).toBe(true);
      expect(holds('is-not-empty', empty), JSON.stringify(empty)).toBe(false);
    }
    for (const value of ['x', 0, false, ['a'], { street: 'Main' }]) {
      expect(holds('is-empty', value), JSON.stringify(value)).toBe(false);
      expect(holds('is-not-empty', value), JSON.stringify(value)).toBe(true);
    }
  });

  it('an unknown operator is refused when compiled', () => {
    expect(() => compileCondition('resembles' as LogicOperator, read('1'), 'x')).toThrow('Invalid operator resembles');
  });

  it('every operator has its entry (label, kinds, value), and the editor offers them by kind', () => {
    expect(Object.keys(FORM_OPERATORS).sort()).toEqual([...LOGIC_OPERATORS].sort());
    expect(operatorsFor('text')).toEqual([
      'equals',
      'not-equals',
      'contains',
      'starts-with',
      'ends-with',
      'is-empty',
      'is-not-empty',
    ]);
    expect(operatorsFor('number')).toEqual([
      'equals',
      'not-equals',
      'greater-than',
      'at-least',
      'less-than',
      'at-most',
      'is-empty',
      'is-not-empty',
    ]);
    expect(operatorsFor('date')).toEqual(['equals', 'not-equals', 'before', 'after', 'is-empty', 'is-not-empty']);
  });

  it('checks that a comparison has something to compare with', () => {
    expect(conditionValueProblem('greater-than', '12')).toBeNull();
    expect(conditionValueProblem('greater-than', 'twelve')).toBe('Compare with a number.');
    expect(conditionValueProblem('before', '2026-03-01')).toBeNull();
    expect(conditionValueProblem('after', null)).toBe('Compare with a date (2026-03-01).');
    expect(conditionValueProblem('is-empty', null)).toBeNull();
    expect(conditionValueProblem('equals', null)).toBeNull();
  });
});

describe('blocks: conditions joined by all or any', () => {
  const notHome = when(1, 'equals', 'not_home');
  const nobodySeen = when(2, 'less-than', '1');
  const hideDetail = [{ target: 'field:4', action: 'hide-field' as const }];

  it('compiles to and / or; one condition stands alone; none always holds', () => {
    expect(compileBlock({ conditions: [notHome, nobodySeen] })).toEqual({
      and: [compileCondition('equals', read('1'), 'not_home'), compileCondition('less-than', read('2'), '1')],
    });
    expect(compileBlock({ conditions: [notHome, nobodySeen], match: 'all' })).toHaveProperty('and');
    expect(compileBlock({ conditions: [notHome, nobodySeen], match: 'any' })).toHaveProperty('or');
    expect(compileBlock({ conditions: [notHome], match: 'any' })).toEqual(
      compileCondition('equals', read('1'), 'not_home'),
    );
    expect(compileBlock({ conditions: [], match: 'any' })).toBe(true);
  });

  it('all (the default, and blocks stored before match existed): every condition must hold', () => {
    const all = block({ conditions: [notHome, nobodySeen], actions: hideDetail });
    const visibility = (values: Record<string, unknown>) =>
      evaluateLogic([all], values, { trigger: 'always', fields }).visibility.detail;
    expect(visibility({ outcome: 'not_home', workers_seen: 0 })).toBe('hidden');
    expect(visibility({ outcome: 'not_home', workers_seen: 3 })).toBe('visible');
    expect(visibility({ outcome: 'home', workers_seen: 0 })).toBe('visible');
  });

  it('any: one condition is enough', () => {
    const any = block({ match: 'any', conditions: [notHome, nobodySeen], actions: hideDetail });
    const visibility = (values: Record<string, unknown>) =>
      evaluateLogic([any], values, { trigger: 'always', fields }).visibility.detail;
    expect(visibility({ outcome: 'not_home', workers_seen: 3 })).toBe('hidden');
    expect(visibility({ outcome: 'home', workers_seen: 0 })).toBe('hidden');
    expect(visibility({ outcome: 'home', workers_seen: 3 })).toBe('visible');
    expect(visibility({ outcome: 'home' })).toBe('visible');
  });

  it('a missing field counts as empty text in every operator', () => {
    const blocks = [
      block({ conditions: [when(1, 'equals', '')], actions: [{ target: 'field:4', action: 'hide-field' }] }),
      block({ conditions: [when(3, 'is-empty')], actions: [{ target: 'field:5', action: 'hide-field' }] }),
    ];
    expect(evaluateLogic(blocks, {}, { trigger: 'always', fields, ...quiet }).visibility).toEqual({
      detail: 'hidden',
      notes: 'hidden',
    });
    expect(
      evaluateLogic(blocks, { outcome: 'home', visited_on: '2026-01-01' }, { trigger: 'always', fields, ...quiet })
        .visibility,
    ).toEqual({ detail: 'visible', notes: 'visible' });
  });

  it('a set-value is seen by the comparisons of later blocks', () => {
    const blocks = [
      block({ conditions: [notHome], actions: [{ target: 'field:2', action: 'set-value', value: 0 }] }),
      block({ conditions: [when(2, 'at-most', '0')], actions: hideDetail }),
    ];
    const result = evaluateLogic(blocks, { outcome: 'not_home', workers_seen: 5 }, { trigger: 'always', fields });
    expect(result.setValues).toEqual({ workers_seen: 0 });
    expect(result.visibility).toEqual({ detail: 'hidden' });
  });

  it('a circular block is skipped with the warning, whatever joins its conditions', () => {
    const logger = vi.fn();
    const circular = block({
      id: 9,
      match: 'any',
      conditions: [notHome, nobodySeen],
      actions: [{ target: 'field:2', action: 'set-value', value: 0 }],
    });
    const result = evaluateLogic(
      [circular],
      { outcome: 'not_home', workers_seen: 5 },
      { trigger: 'always', fields, logger },
    );
    expect(result.skipped).toEqual([0]);
    expect(result.setValues).toEqual({});
    expect(result.warnings).toEqual([
      'Logic block 9 was skipped: circular dependency (field:2 is both a condition source and an action target).',
    ]);
    expect(logger).toHaveBeenCalledWith(result.warnings[0]);
  });

  it('an unknown operator in a block is refused', () => {
    const broken = block({ conditions: [when(1, 'resembles' as LogicOperator, 'x')], actions: hideDetail });
    expect(() => evaluateLogic([broken], {}, { trigger: 'always', fields })).toThrow('Invalid operator');
  });
});

describe('importer rules compile to JSON Logic over their cell', () => {
  const cases: Array<[(typeof RULE_OPERATORS)[number], string, string | undefined, boolean]> = [
    ['eq', 'hospital', ' Hospital ', true],
    ['eq', '1000', '$1,000', true],
    ['eq', '1000', 'one thousand', false],
    ['neq', 'hospital', 'School', true],
    ['neq', '1000', '1,000.00', false],
    ['gt', '$1,000,000', '2,000,000', true],
    ['gt', '5', 'lots', false],
    ['gte', '1M', '1000000', true],
    ['lt', '0', '(500)', true],
    ['lt', '5', undefined, false],
    ['lte', '2026-03-01', 'Mar 1, 2026', true],
    ['in', 'School, Library ,Hospital', 'library', true],
    ['in', 'a,,b', '', false],
    ['string-contains', 'electrical', 'New ELECTRICAL service', true],
    ['string-contains', '', undefined, true],
    ['string-start', 'solar', 'Solar farm', true],
    ['string-end', 'garage', 'Garage door', false],
  ];
  it.each(cases)('%s %j against %j is %s', (operator, value, cell, outcome) => {
    const logic: JsonLogic = compileRule({ operator, value });
    expect(JSON.parse(JSON.stringify(logic))).toEqual(logic);
    expect(jsonLogic.truthy(jsonLogic.apply(logic, { cell: cell ?? '' }))).toBe(outcome);
  });

  it('covers each of the ten operators', () => {
    expect(new Set(cases.map(([operator]) => operator))).toEqual(new Set(RULE_OPERATORS));
  });

  it('the shapes are ordinary JSON Logic: in over a folded list, comparisons guarded against cells that are not amounts', () => {
    expect(compileRule({ operator: 'in', value: 'School, Library' })).toEqual({
      in: [{ fold: [{ var: 'cell' }] }, ['school', 'library']],
    });
    expect(compileRule({ operator: 'string-start', value: 'Solar' })).toEqual({
      'starts-with': [{ fold: [{ var: 'cell' }] }, 'solar'],
    });
    expect(compileRule({ operator: 'gte', value: '1M' })).toEqual({
      and: [
        { '!==': [{ 'as-amount': [{ var: 'cell' }] }, null] },
        { '>=': [{ 'as-amount': [{ var: 'cell' }] }, 1_000_000] },
      ],
    });
    expect(compileRule({ operator: 'eq', value: 'Hospital' })).toEqual({
      '===': [{ fold: [{ var: 'cell' }] }, 'hospital'],
    });
    expect(() => compileRule({ operator: 'like' as any, value: 'x' })).toThrow('Invalid operator like');
  });
});
