import { describe, expect, it } from 'vitest';
import { describeField } from '../../../src/client/records/fieldTypes/describe';
import {
  canRestoreVersion,
  historyText,
  type Revision,
  valuesToRestore,
} from '../../../src/client/records/history/history';
import {
  changedFields,
  changedSetValues,
  isHidden,
  logicSources,
  logicTargets,
  mergeVisibility,
  runLogic,
  sameValue,
} from '../../../src/client/records/logic/logic';
import { othersIn, presenceChannel } from '../../../src/client/records/presence/usePresence';
import type { LogicBlock } from '../../../src/common/schema-types';

const fields = [
  { id: 1, slug: 'access' },
  { id: 2, slug: 'gate_code' },
  { id: 3, slug: 'status' },
  { id: 4, slug: 'priority' },
];
const show: LogicBlock = {
  trigger: 'always',
  conditions: [{ source: 'field:1', operator: 'equals', value: 'gated' }],
  actions: [{ target: 'field:2', action: 'show-field' }],
};
const setOnChange: LogicBlock = {
  trigger: 'on-change',
  conditions: [{ source: 'field:3', operator: 'equals', value: 'urgent' }],
  actions: [{ target: 'field:4', action: 'set-value', value: 'high' }],
};
const setOnLoad: LogicBlock = {
  trigger: 'on-load',
  conditions: [],
  actions: [{ target: 'field:4', action: 'set-value', value: 'normal' }],
};

describe('form logic in the forms', () => {
  it('watches only the fields the conditions read', () => {
    expect(logicSources([show, setOnChange], fields)).toEqual(['access', 'status']);
    expect(logicTargets([show, setOnChange], fields)).toEqual(['gate_code', 'priority']);
    expect(
      logicSources(
        [{ trigger: 'always', conditions: [{ source: 'field:99', operator: 'equals', value: '' }], actions: [] }],
        fields,
      ),
    ).toEqual([]);
  });

  it('on load runs always and on-load blocks; a change runs always blocks and the on-change blocks reading it', () => {
    const load = runLogic([show, setOnChange, setOnLoad], { access: 'open', status: 'urgent' }, fields, {
      kind: 'load',
    });
    expect(load.visibility).toEqual({ gate_code: 'hidden' });
    expect(load.setValues).toEqual({ priority: 'normal' });

    const changedAccess = runLogic([show, setOnChange, setOnLoad], { access: 'gated', status: 'urgent' }, fields, {
      kind: 'change',
      field: 'access',
    });
    expect(changedAccess.visibility).toEqual({ gate_code: 'visible' });
    expect(changedAccess.setValues).toEqual({});

    const changedStatus = runLogic([show, setOnChange], { access: 'gated', status: 'urgent' }, fields, {
      kind: 'change',
      field: 'status',
    });
    expect(changedStatus.setValues).toEqual({ priority: 'high' });

    expect(runLogic([show], { access: 'gated' }, fields, { kind: 'all' }).visibility).toEqual({ gate_code: 'visible' });
  });

  it('a broken block leaves the form as it is instead of throwing', () => {
    const broken = {
      trigger: 'always',
      conditions: [{ source: 'status', operator: 'equals', value: 'x' }],
      actions: [],
    } as unknown as LogicBlock;
    const outcome = runLogic([broken], {}, fields, { kind: 'load' });
    expect(outcome.visibility).toEqual({});
    expect(outcome.warnings[0]).toMatch(/Invalid source type/);
  });

  it('keeps earlier decisions and only re-renders when something changed', () => {
    const first = mergeVisibility({}, { gate_code: 'hidden' });
    expect(mergeVisibility(first, { gate_code: 'hidden' })).toBe(first);
    const second = mergeVisibility(first, { other: 'visible' });
    expect(second).toEqual({ gate_code: 'hidden', other: 'visible' });
    expect(isHidden(second, 'gate_code')).toBe(true);
    expect(isHidden(second, 'other')).toBe(false);
  });

  it('a set-value to the value already there does nothing', () => {
    expect(changedSetValues({ priority: 'high', size: 3 }, { priority: 'high', size: 2 })).toEqual([['size', 3]]);
    expect(changedSetValues({ note: '' }, { note: null })).toEqual([]);
    expect(sameValue(['a'], ['a'])).toBe(true);
    expect(changedFields(['a', 'b'], ['x', 1], ['x', 2])).toEqual(['b']);
  });
});

describe('history', () => {
  const revisions: Revision[] = [
    {
      id: 4,
      revisionable_type: 'site',
      revisionable_id: 1,
      action: 'updated',
      user_id: 1,
      user_name: 'A',
      changes: { gate_code: ['2', '3'], owner: ['x', 'y'] },
      import_id: null,
      created_at: '',
    },
    {
      id: 3,
      revisionable_type: 'site',
      revisionable_id: 1,
      action: 'restored',
      user_id: 1,
      user_name: 'A',
      changes: {},
      import_id: null,
      created_at: '',
    },
    {
      id: 2,
      revisionable_type: 'site',
      revisionable_id: 1,
      action: 'updated',
      user_id: 1,
      user_name: 'A',
      changes: { gate_code: ['1', '2'], contractor_ids: [[], [5]] },
      import_id: null,
      created_at: '',
    },
    {
      id: 1,
      revisionable_type: 'site',
      revisionable_id: 1,
      action: 'created',
      user_id: 1,
      user_name: 'A',
      changes: { gate_code: [null, '1'], owner: [null, 'x'] },
      import_id: null,
      created_at: '',
    },
  ];
  const editable = new Set(['gate_code', 'owner']);

  it('restoring a version undoes every later change (editable fields only)', () => {
    expect(valuesToRestore(revisions, 0, editable)).toEqual({});
    expect(valuesToRestore(revisions, 2, editable)).toEqual({ gate_code: '2', owner: 'x' });
    expect(valuesToRestore(revisions, 3, editable)).toEqual({ gate_code: '1', owner: 'x' });
    expect(canRestoreVersion(revisions, 0, editable)).toBe(false);
    expect(canRestoreVersion(revisions, 3, editable)).toBe(true);
  });

  it('shows values as people read them', () => {
    const status = describeField({
      slug: 'status',
      name: 'Status',
      type: 'dropdown',
      options: { choices: [{ value: 'open', label: 'Open' }] },
    });
    expect(historyText('open', status)).toBe('Open');
    expect(historyText(null)).toBe('—');
    expect(historyText(true)).toBe('Yes');
    expect(historyText([1, 2])).toBe('1, 2');
    expect(historyText(1234, describeField({ slug: 'h', name: 'H', type: 'estimated-hours' }))).toBe('1,234 h');
  });
});

describe('presence', () => {
  it('names the channel and leaves the person out of the list', () => {
    expect(presenceChannel('site', 12)).toBe('presence-record.site.12');
    expect(
      othersIn(
        [
          { id: '1', info: { name: 'Me' } },
          { id: '7', info: { name: 'Zoe' } },
          { id: '3', info: { name: 'Ann' } },
          { id: '7', info: { name: 'Zoe' } },
        ],
        1,
      ),
    ).toEqual([
      { id: '3', name: 'Ann' },
      { id: '7', name: 'Zoe' },
    ]);
  });
});
