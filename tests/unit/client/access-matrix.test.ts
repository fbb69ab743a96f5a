import { describe, expect, it } from 'vitest';
import {
  type AccessType,
  accessMatrix,
  actionsOf,
  draftOf,
  ruleOf,
  withTypePolicy,
} from '../../../src/client/admin/access';

const inspection: AccessType = {
  type: 'safety-inspection',
  resource: 'safety-inspection',
  singular: 'Inspection',
  plural: 'Inspections',
  entity: 'safety-inspection',
  category_field: null,
  fields: [
    { slug: 'fine', name: 'Fine', kind: 'number' },
    { slug: 'finding', name: 'Finding', kind: 'text' },
  ],
  reach: { own: true, team: true, turf: false, parent: false },
};

const note: AccessType = {
  type: 'note',
  resource: 'notes',
  singular: 'Note',
  plural: 'Notes',
  entity: 'note',
  category_field: null,
  fields: [{ slug: 'body', name: 'Body', kind: 'text' }],
  reach: { own: true, team: true, turf: false, parent: true },
};

describe('the role screen access matrix', () => {
  it('says in words what a role sees, changes and cannot see of a type made in the app', () => {
    const [row] = accessMatrix(
      {
        name: 'Organizers',
        permissions: ['safety-inspection:read', 'safety-inspection:update'],
        policy: {
          'safety-inspection': { read: { any: ['own', 'team'] }, update: 'own', fields: { fine: 'hidden' } },
        },
      },
      [inspection],
    );
    expect(row!.actions.read).toBe(true);
    expect(row!.actions.update).toBe(true);
    expect(row!.actions.delete).toBe(false);
    expect(row!.hidden).toEqual(['Fine']);
    expect(row!.sentence).toBe(
      'Organizers: see the inspections they created or are assigned or of their team; change the inspections they created or are assigned; cannot see Fine.',
    );
  });

  it('says a role without the read permission cannot see the type at all', () => {
    const [row] = accessMatrix({ name: 'Guests', permissions: [], policy: {} }, [inspection]);
    expect(row!.actions.read).toBe(false);
    expect(row!.sentence).toBe('Guests: cannot see inspections.');
  });

  it('lists read-only fields and a condition with the field names', () => {
    const [row] = accessMatrix(
      {
        name: 'Stewards',
        permissions: ['safety-inspection:read'],
        policy: {
          'safety-inspection': {
            read: { condition: { all: [{ field: 'finding', op: 'eq', value: 'open' }] } },
            fields: { fine: 'read_only' },
          },
        },
      },
      [inspection],
    );
    expect(row!.readOnly).toEqual(['Fine']);
    expect(row!.words.read).toBe('the inspections where Finding is open');
  });

  it('keeps the default of what hangs on a record (own or on records they may see)', () => {
    const [row] = accessMatrix({ name: 'Organizers', permissions: ['note:read'], policy: {} }, [note]);
    expect(row!.words.read).toBe('the notes they created or are assigned or on records they may see');
  });

  it('derives export, import and history from the permission strings as the server does', () => {
    const actions = actionsOf(['site:read', 'site:create', 'export:create', 'revision:read'], 'site');
    expect(actions).toMatchObject({ read: true, create: true, export: true, import: false, history: true });
    expect(actionsOf(['site:create', 'import:create'], 'site').import).toBe(true);
    expect(actionsOf(['export:create'], 'site').export).toBe(false);
  });
});

describe('the rule editor draft', () => {
  it('turns a rule into ticked kinds and back', () => {
    const rule = { any: ['own', 'team'] } as const;
    const draft = draftOf({ any: ['own', 'team'] });
    expect(draft).toMatchObject({ kinds: ['own', 'team'], join: 'any' });
    expect(ruleOf(draft)).toEqual(rule);
    expect(ruleOf({ ...draft, join: 'all' })).toEqual({ all: ['own', 'team'] });
  });

  it('keeps a condition only when it has an item; nothing ticked is every record', () => {
    expect(ruleOf({ kinds: ['condition'], join: 'any', condition: { all: [] } })).toBeUndefined();
    expect(ruleOf(draftOf('all'))).toBeUndefined();
    const condition = { all: [{ field: 'finding', op: 'eq', value: 'open' }] };
    expect(ruleOf(draftOf({ condition }))).toEqual({ condition });
    expect(ruleOf({ kinds: ['turf', 'condition'], join: 'all', condition })).toEqual({
      all: ['turf', { condition }],
    });
  });

  it('drops a type whose rules are all empty so it keeps its defaults, and leaves other types alone', () => {
    const policy = { note: { update: 'own' as const }, site: { read: 'turf' as const } };
    expect(withTypePolicy(policy, 'note', { fields: {} })).toEqual({ site: { read: 'turf' } });
    expect(withTypePolicy(policy, 'note', { delete: 'own', fields: { body: 'hidden' } })).toEqual({
      note: { delete: 'own', fields: { body: 'hidden' } },
      site: { read: 'turf' },
    });
  });
});
