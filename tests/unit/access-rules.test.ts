import { describe, expect, it } from 'vitest';
import {
  allOf,
  anyOf,
  effectiveRule,
  isPersonal,
  type PolicySubject,
  refusalWords,
  rulesBeyond,
  ruleWithin,
  ruleWords,
  TURF_OR_OWN,
} from '../../src/common/access-rules.js';

const subject = (permissions: string[], policy: PolicySubject['policy'] = {}): PolicySubject => ({
  role_id: 1,
  permissions,
  policy,
});
const site = { type: 'site', categoryField: 'type' };
const names = {
  singular: 'Site',
  plural: 'Sites',
  field: (slug: string) => ({ type: 'Type', fine: 'Fine' })[slug] ?? slug,
  choice: (_field: string, value: string) => ({ union: 'Union', pla: 'PLA' })[value] ?? value,
};

describe('effectiveRule: the permission strings and a role’s own rules give one policy', () => {
  it('a bare read with no rule reads every record', () => {
    expect(effectiveRule(subject(['site:read']), site, 'read')).toBe('all');
  });

  it('category reads are a condition on the category field', () => {
    expect(effectiveRule(subject(['site:read:union', 'site:read:pla']), site, 'read')).toEqual({
      condition: { all: [{ field: 'type', op: 'in', value: ['pla', 'union'] }] },
    });
  });

  it('site:read:turf without site:read is "their turf, or their own" on the turf’s types, and beside a category both hold', () => {
    expect(effectiveRule(subject(['site:read:turf']), site, 'read')).toEqual(TURF_OR_OWN);
    expect(
      effectiveRule(
        subject(['site:read:turf', 'contractor:read']),
        { type: 'contractor', categoryField: 'type' },
        'read',
      ),
    ).toEqual(TURF_OR_OWN);
    expect(effectiveRule(subject(['site:read:turf', 'site:read:union']), site, 'read')).toEqual({
      all: [TURF_OR_OWN, { condition: { all: [{ field: 'type', op: 'in', value: ['union'] }] } }],
    });
    // The same rule written by the role gives the same policy.
    expect(effectiveRule(subject(['site:read'], { site: { read: TURF_OR_OWN } }), site, 'read')).toEqual(TURF_OR_OWN);
    // With the bare read, the turf permission limits nothing.
    expect(effectiveRule(subject(['site:read', 'site:read:turf']), site, 'read')).toBe('all');
  });

  it('what hangs on a record is read with it, or is one’s own; private records are their owner’s whatever a role says', () => {
    expect(effectiveRule(subject(['note:read']), { type: 'note' }, 'read')).toEqual({ any: ['own', 'parent'] });
    expect(effectiveRule(subject(['export:read'], { export: { read: 'all' } }), { type: 'export' }, 'read')).toBe(
      'own',
    );
  });

  it('update and delete never reach past read, and delete follows update unless it has its own rule', () => {
    const organizer = subject(['note:read', 'note:update'], { note: { update: 'own' } });
    expect(effectiveRule(organizer, { type: 'note' }, 'update')).toBe('own');
    expect(effectiveRule(organizer, { type: 'note' }, 'delete')).toEqual(
      effectiveRule(organizer, { type: 'note' }, 'update'),
    );
  });

  it('signed out: nothing', () => {
    expect(effectiveRule(null, site, 'read')).toBe('none');
  });
});

describe('combining rules', () => {
  it('all and any simplify', () => {
    expect(allOf('all', 'own')).toBe('own');
    expect(allOf('own', 'none')).toBe('none');
    expect(anyOf('own', 'all')).toBe('all');
    expect(anyOf('none', 'turf')).toBe('turf');
    expect(anyOf({ any: ['own', 'team'] }, 'own')).toEqual({ any: ['own', 'team'] });
  });

  it('a rule is personal when it depends on who reads', () => {
    expect(isPersonal('all')).toBe(false);
    expect(isPersonal({ condition: { all: [{ field: 'type', op: 'eq', value: 'union' }] } })).toBe(false);
    expect(isPersonal({ all: [{ condition: { all: [] } }, 'team'] })).toBe(true);
    // `parent` depends on the person only when a parent type's rule does (the policy works that out per role).
    expect(isPersonal('parent')).toBe(true);
    expect(isPersonal('parent', false)).toBe(false);
    expect(isPersonal({ any: ['parent', { condition: { all: [] } }] }, false)).toBe(false);
    expect(isPersonal({ any: ['own', 'parent'] }, false)).toBe(true);
  });
});

describe('nobody widens a rule beyond their own', () => {
  it('ruleWithin follows the rules’ form', () => {
    expect(ruleWithin('own', 'all')).toBe(true);
    expect(ruleWithin('all', 'own')).toBe(false);
    expect(ruleWithin('own', TURF_OR_OWN)).toBe(true);
    expect(ruleWithin(TURF_OR_OWN, 'turf')).toBe(false);
    expect(ruleWithin({ all: ['turf', 'team'] }, 'turf')).toBe(true);
    const union = { condition: { all: [{ field: 'type', op: 'eq', value: 'union' }] } };
    const unionInLa = {
      condition: {
        all: [
          { field: 'type', op: 'eq', value: 'union' },
          { field: 'county', op: 'eq', value: 'LA' },
        ],
      },
    };
    expect(ruleWithin(unionInLa, union)).toBe(true);
    expect(ruleWithin(union, unionInLa)).toBe(false);
  });

  it('rulesBeyond names the wider rules and the opened fields', () => {
    const editor = subject(['site:read', 'site:update', 'role:update'], {
      site: { read: 'turf', fields: { fine: 'hidden' } },
    });
    expect(
      rulesBeyond(editor, {
        permissions: ['site:read'],
        policy: { site: { read: 'turf', fields: { fine: 'hidden' } } },
      }),
    ).toEqual([]);
    expect(rulesBeyond(editor, { permissions: ['site:read'], policy: { site: { read: 'turf' } } })).toEqual([
      'site field fine',
    ]);
    expect(rulesBeyond(editor, { permissions: ['site:read'], policy: {} })).toContain('read site rows');
    // A read-only field may be granted read-only or hidden, never open.
    const reader = subject(['site:read'], { site: { fields: { fine: 'read_only' } } });
    expect(
      rulesBeyond(reader, { permissions: ['site:read'], policy: { site: { fields: { fine: 'hidden' } } } }),
    ).toEqual([]);
  });
});

describe('plain words', () => {
  it('say what a rule lets one see', () => {
    expect(ruleWords('all', names)).toBe('every site');
    expect(ruleWords({ any: ['own', 'team'] }, names)).toBe('the sites they created or are assigned or of their team');
    expect(ruleWords({ condition: { all: [{ field: 'type', op: 'in', value: ['union', 'pla'] }] } }, names)).toBe(
      'the sites where Type is one of Union or PLA',
    );
  });

  it('say why a record is out of reach', () => {
    expect(refusalWords(TURF_OR_OWN, names, 'read')).toBe('This site is outside your turf.');
    expect(refusalWords('own', { singular: 'Note', plural: 'Notes' }, 'update')).toBe(
      'You may change only the notes you created or are assigned.',
    );
    expect(refusalWords('team', names, 'read')).toBe(
      'This site is not one your role may see: you see the sites of your team.',
    );
  });
});
