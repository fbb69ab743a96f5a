import { describe, expect, it, vi } from 'vitest';
import { compare, evaluateLogic, hiddenFields, isCircular, valueAsText } from '../../src/common/form-logic/index.js';
import type { LogicBlock, LogicOperator } from '../../src/common/schema-types.js';

const fields = [
  { id: 1, slug: 'status' },
  { id: 2, slug: 'closed_at' },
  { id: 3, slug: 'reason' },
  { id: 4, slug: 'priority' },
  { id: 5, slug: 'notes' },
];
const quiet = { logger: () => {} };
const block = (partial: Partial<LogicBlock>): LogicBlock => ({
  trigger: 'always',
  conditions: [],
  actions: [],
  ...partial,
});
const when = (source: number, operator: LogicOperator, value: string | null) => ({
  source: `field:${source}`,
  operator,
  value,
});

describe('conditions compare the value as text', () => {
  const cases: Array<[LogicOperator, unknown, string, boolean]> = [
    ['equals', 'closed', 'closed', true],
    ['equals', 'Closed', 'closed', false],
    ['equals', 3, '3', true],
    ['equals', true, 'true', true],
    ['equals', undefined, '', true],
    ['equals', null, '', true],
    ['not-equals', 'open', 'closed', true],
    ['not-equals', 'closed', 'closed', false],
    ['not-equals', undefined, '', false],
    ['contains', 'electrical work', 'trical', true],
    ['contains', 'electrical', 'plumb', false],
    ['contains', undefined, '', true],
    ['starts-with', 'union-pla', 'union', true],
    ['starts-with', 'non-union', 'union', false],
    ['ends-with', 'non-union', 'union', true],
    ['ends-with', 'union-pla', 'union', false],
    ['contains', [1, 2, 3], '2,3', true],
  ];
  it.each(cases)('%s(%j, %j) is %s', (operator, actual, expected, outcome) => {
    expect(compare(operator, actual, expected)).toBe(outcome);
  });

  it('a missing field counts as empty text', () => {
    expect(valueAsText(undefined)).toBe('');
    const blocks = [
      block({ conditions: [when(1, 'equals', '')], actions: [{ target: 'field:2', action: 'hide-field' }] }),
    ];
    expect(evaluateLogic(blocks, {}, { trigger: 'always', fields, ...quiet }).visibility).toEqual({
      closed_at: 'hidden',
    });
  });

  it('an unknown operator is refused', () => {
    expect(() => compare('greater' as LogicOperator, 1, 2)).toThrow('Invalid operator');
  });
});

describe('actions', () => {
  const showClosedWhenClosed = block({
    conditions: [when(1, 'equals', 'closed')],
    actions: [{ target: 'field:2', action: 'show-field' }],
  });
  const hideReasonWhenOpen = block({
    conditions: [when(1, 'equals', 'open')],
    actions: [{ target: 'field:3', action: 'hide-field' }],
  });

  it('show-field makes the target visible when the conditions hold, hidden when they do not', () => {
    expect(
      evaluateLogic([showClosedWhenClosed], { status: 'closed' }, { trigger: 'always', fields }).visibility,
    ).toEqual({ closed_at: 'visible' });
    expect(evaluateLogic([showClosedWhenClosed], { status: 'open' }, { trigger: 'always', fields }).visibility).toEqual(
      { closed_at: 'hidden' },
    );
  });

  it('hide-field hides the target when the conditions hold, shows it when they do not', () => {
    expect(evaluateLogic([hideReasonWhenOpen], { status: 'open' }, { trigger: 'always', fields }).visibility).toEqual({
      reason: 'hidden',
    });
    expect(evaluateLogic([hideReasonWhenOpen], { status: 'closed' }, { trigger: 'always', fields }).visibility).toEqual(
      { reason: 'visible' },
    );
  });

  it('set-value changes the value, tells the form, and later blocks see the new value', () => {
    const onSetValue = vi.fn();
    const blocks = [
      block({
        conditions: [when(1, 'equals', 'closed')],
        actions: [{ target: 'field:4', action: 'set-value', value: 'low' }],
      }),
      block({ conditions: [when(4, 'equals', 'low')], actions: [{ target: 'field:5', action: 'hide-field' }] }),
    ];
    const result = evaluateLogic(
      blocks,
      { status: 'closed', priority: 'high' },
      { trigger: 'always', fields, onSetValue },
    );
    expect(result.setValues).toEqual({ priority: 'low' });
    expect(result.values).toMatchObject({ status: 'closed', priority: 'low' });
    expect(onSetValue).toHaveBeenCalledWith('priority', 'low');
    expect(result.visibility).toEqual({ notes: 'hidden' });
  });

  it('set-value does nothing when the conditions do not hold', () => {
    const onSetValue = vi.fn();
    const blocks = [
      block({
        conditions: [when(1, 'equals', 'closed')],
        actions: [{ target: 'field:4', action: 'set-value', value: 'low' }],
      }),
    ];
    const result = evaluateLogic(
      blocks,
      { status: 'open', priority: 'high' },
      { trigger: 'always', fields, onSetValue },
    );
    expect(result.setValues).toEqual({});
    expect(result.values.priority).toBe('high');
    expect(onSetValue).not.toHaveBeenCalled();
  });

  it('every condition of a block must hold; a block without conditions always holds', () => {
    const both = block({
      conditions: [when(1, 'equals', 'closed'), when(4, 'equals', 'high')],
      actions: [{ target: 'field:5', action: 'show-field' }],
    });
    expect(
      evaluateLogic([both], { status: 'closed', priority: 'low' }, { trigger: 'always', fields }).visibility.notes,
    ).toBe('hidden');
    expect(
      evaluateLogic([both], { status: 'closed', priority: 'high' }, { trigger: 'always', fields }).visibility.notes,
    ).toBe('visible');
    const unconditional = block({ actions: [{ target: 'field:5', action: 'hide-field' }] });
    expect(evaluateLogic([unconditional], {}, { trigger: 'always', fields }).visibility.notes).toBe('hidden');
  });

  it('the later block wins when two decide on one field', () => {
    const show = block({ actions: [{ target: 'field:5', action: 'show-field' }] });
    const hide = block({ actions: [{ target: 'field:5', action: 'hide-field' }] });
    expect(evaluateLogic([show, hide], {}, { trigger: 'always', fields }).visibility.notes).toBe('hidden');
    expect(evaluateLogic([hide, show], {}, { trigger: 'always', fields }).visibility.notes).toBe('visible');
  });

  it('a hidden field keeps its value unless the rule that hid it says to clear it, and the last decision counts', () => {
    const hide = block({ actions: [{ target: 'field:5', action: 'hide-field' }] });
    const hideAndClear = block({ actions: [{ target: 'field:5', action: 'hide-field' }], clear_hidden: true });
    const show = block({ actions: [{ target: 'field:5', action: 'show-field' }] });
    const run = (blocks: LogicBlock[]) => evaluateLogic(blocks, { notes: 'Rail fixed' }, { trigger: 'always', fields });
    expect(run([hide])).toMatchObject({
      visibility: { notes: 'hidden' },
      cleared: {},
      values: { notes: 'Rail fixed' },
    });
    expect(run([hideAndClear]).cleared).toEqual({ notes: true });
    expect(run([hideAndClear, show]).cleared).toEqual({});
    expect(run([hideAndClear, hide]).cleared).toEqual({});
    // Shown again by the same clearing rule: nothing to clear.
    const clearingWhenOpen = block({ ...hideReasonWhenOpen, clear_hidden: true });
    expect(evaluateLogic([clearingWhenOpen], { status: 'closed' }, { trigger: 'always', fields }).cleared).toEqual({});
  });

  it('without a field list, values and results are keyed by id (or field:{id})', () => {
    const result = evaluateLogic([showClosedWhenClosed], { 'field:1': 'closed' }, { trigger: 'always' });
    expect(result.visibility).toEqual({ '2': 'visible' });
    expect(evaluateLogic([showClosedWhenClosed], { '1': 'closed' }, { trigger: 'always' }).visibility).toEqual({
      '2': 'visible',
    });
  });
});

describe('triggers', () => {
  const always = block({
    trigger: 'always',
    conditions: [when(1, 'equals', 'x')],
    actions: [{ target: 'field:2', action: 'hide-field' }],
  });
  const onLoad = block({
    trigger: 'on-load',
    conditions: [when(1, 'equals', 'x')],
    actions: [{ target: 'field:3', action: 'hide-field' }],
  });
  const onChange = block({
    trigger: 'on-change',
    conditions: [when(1, 'equals', 'x')],
    actions: [{ target: 'field:4', action: 'hide-field' }],
  });
  const blocks = [always, onLoad, onChange];
  const values = { status: 'x' };

  it('always blocks run on every evaluation', () => {
    for (const trigger of ['always', 'on-load', 'on-change'] as const) {
      expect(evaluateLogic([always], values, { trigger, fields }).visibility).toEqual({ closed_at: 'hidden' });
    }
  });

  it('on-load blocks run when the form loads', () => {
    expect(evaluateLogic(blocks, values, { trigger: 'on-load', fields }).visibility).toEqual({
      closed_at: 'hidden',
      reason: 'hidden',
    });
  });

  it('on-change blocks run when one of their sources changes, and not for other fields', () => {
    expect(evaluateLogic(blocks, values, { trigger: 'on-change', changedField: 'status', fields }).visibility).toEqual({
      closed_at: 'hidden',
      priority: 'hidden',
    });
    expect(
      evaluateLogic(blocks, values, { trigger: 'on-change', changedField: 'field:1', fields }).visibility.priority,
    ).toBe('hidden');
    expect(evaluateLogic(blocks, values, { trigger: 'on-change', changedField: 1, fields }).visibility.priority).toBe(
      'hidden',
    );
    expect(evaluateLogic(blocks, values, { trigger: 'on-change', changedField: 'notes', fields }).visibility).toEqual({
      closed_at: 'hidden',
    });
  });

  it('the server evaluates every block (trigger all)', () => {
    expect(evaluateLogic(blocks, values, { trigger: 'all', fields }).visibility).toEqual({
      closed_at: 'hidden',
      reason: 'hidden',
      priority: 'hidden',
    });
    expect(hiddenFields(blocks, values, fields)).toEqual(new Set(['closed_at', 'reason', 'priority']));
    expect(hiddenFields(blocks, { status: 'y' }, fields)).toEqual(new Set());
  });
});

describe('circular blocks', () => {
  it('a block whose condition source is also an action target is skipped with a logged warning', () => {
    const logger = vi.fn();
    const circular = block({
      id: 7,
      description: 'loop',
      conditions: [when(1, 'equals', 'x')],
      actions: [
        { target: 'field:2', action: 'show-field' },
        { target: 'field:1', action: 'set-value', value: 'y' },
      ],
    });
    const fine = block({
      conditions: [when(1, 'equals', 'x')],
      actions: [{ target: 'field:3', action: 'hide-field' }],
    });
    expect(isCircular(circular)).toBe(true);
    expect(isCircular(fine)).toBe(false);
    const result = evaluateLogic([circular, fine], { status: 'x' }, { trigger: 'always', fields, logger });
    expect(result.skipped).toEqual([0]);
    expect(result.visibility).toEqual({ reason: 'hidden' });
    expect(result.setValues).toEqual({});
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatch(/Logic block 7 "loop" was skipped: circular/);
    expect(logger).toHaveBeenCalledWith(result.warnings[0]);
  });

  it('logs with console.warn by default', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    evaluateLogic(
      [block({ conditions: [when(4, 'equals', '')], actions: [{ target: 'field:4', action: 'hide-field' }] })],
      {},
      { trigger: 'always', fields },
    );
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
});

describe('invalid sources and targets', () => {
  it.each(['status', 'field:', 'field:abc', 'site:1', '', null, 12])(
    'source %j raises Invalid source type',
    (source) => {
      const blocks = [
        block({
          conditions: [{ source: source as string, operator: 'equals', value: 'x' }],
          actions: [{ target: 'field:2', action: 'hide-field' }],
        }),
      ];
      expect(() => evaluateLogic(blocks, {}, { trigger: 'always', fields })).toThrow('Invalid source type');
    },
  );

  it.each(['closed_at', 'field:x', 'user:2', undefined])('target %j raises Invalid target type', (target) => {
    const blocks = [
      block({ conditions: [when(1, 'equals', 'x')], actions: [{ target: target as string, action: 'hide-field' }] }),
    ];
    expect(() => evaluateLogic(blocks, {}, { trigger: 'always', fields })).toThrow('Invalid target type');
  });
});
