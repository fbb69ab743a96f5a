import { describe, expect, it } from 'vitest';
import { currentMonth, goalsFor } from '../../../src/client/admin/GoalsCard';
import { coverage, permissionGroups, toggle, toggleAll } from '../../../src/client/admin/permissions';
import { userValues } from '../../../src/client/admin/UserForm';
import { revisionQuery } from '../../../src/client/records/history/RevisionList';
import { valuesFromSearch } from '../../../src/client/records/RecordCreate';
import { describeBlock, slugifyField } from '../../../src/client/schemas/shared';
import { PERMISSION_ENTITIES } from '../../../src/common/permission-catalogue';

describe('the roles permission checklist', () => {
  it('has a row for every permission entity, grouped, named as the record types are', () => {
    const groups = permissionGroups({ site: 'Job Sites' }, ['vehicle']);
    const entities = groups.flatMap((group) => group.rows.map((row) => row.entity));
    for (const entity of PERMISSION_ENTITIES) expect(entities).toContain(entity);
    expect(entities).toContain('vehicle');
    expect(new Set(entities).size).toBe(entities.length);
    const site = groups[0]!.rows.find((row) => row.entity === 'site')!;
    expect(site.label).toBe('Job Sites');
    expect(site.permissions).toEqual(['site:create', 'site:read', 'site:update', 'site:delete', 'site:restore']);
    expect(site.categories.map((c) => c.permission)).toContain('site:read:union');
    expect(groups.find((group) => group.title === 'Record types created here')?.rows[0]?.entity).toBe('vehicle');
    expect(groups.flatMap((g) => g.rows).find((row) => row.entity === 'task')?.label).toBe('Tasks');
  });

  it('toggles one, a row, and tells how much of a row is held', () => {
    expect(toggle(['b'], 'a', true)).toEqual(['a', 'b']);
    expect(toggle(['a', 'b'], 'a', false)).toEqual(['b']);
    expect(toggleAll(['x'], ['a', 'b'], true)).toEqual(['a', 'b', 'x']);
    expect(toggleAll(['a', 'b', 'x'], ['a', 'b'], false)).toEqual(['x']);
    expect(coverage(new Set(['a']), ['a', 'b'])).toBe('some');
    expect(coverage(new Set(['a', 'b']), ['a', 'b'])).toBe('all');
    expect(coverage(new Set(), ['a'])).toBe('none');
  });
});

describe('users', () => {
  it('goals of a month fall back to the every-month goals', () => {
    const goals = { default: { calls: 10, visits: 2 }, '2026-11': { calls: 40 } };
    expect(goalsFor(goals, '2026-11')).toEqual({ calls: 40, visits: 2 });
    expect(goalsFor(goals, '2026-12')).toEqual({ calls: 10, visits: 2 });
    expect(goalsFor(null, 'default')).toEqual({});
    expect(currentMonth(new Date(2026, 0, 5))).toBe('2026-01');
  });

  it('sends only the user fields, and no blank password', () => {
    expect(userValues({ id: 1, first_name: 'A', password: '', role: { id: 1 }, team_ids: [2] }, '2026')).toEqual({
      first_name: 'A',
      team_ids: [2],
      updated_at: '2026',
    });
  });
});

describe('screens', () => {
  it('turns revision filters into the query GET /api/revisions takes', () => {
    expect(revisionQuery({ type: 'site', action: '', to: '2026-11-20', q: 'x' }, 2, 500)).toEqual({
      page: 2,
      per_page: 200,
      type: 'site',
      to: '2026-11-20T23:59:59.999Z',
    });
  });

  it('reads rules as sentences and field names as slugs', () => {
    const fields = [
      { id: 1, name: 'Access' },
      { id: 2, name: 'Gate code' },
    ];
    expect(
      describeBlock(
        {
          conditions: [{ source: 'field:1', operator: 'equals', value: 'gated' }],
          actions: [{ target: 'field:2', action: 'show-field' }],
        },
        fields,
      ),
    ).toBe('When Access equals "gated", show Gate code');
    expect(
      describeBlock({ conditions: [], actions: [{ target: 'field:2', action: 'set-value', value: 'x' }] }, fields),
    ).toBe('Always, set Gate code to "x"');
    expect(slugifyField('Gate code #2')).toBe('gate_code_2');
    expect(slugifyField('2nd phone')).toBe('f_2nd_phone');
  });

  it('takes initial values from ?source=', () => {
    expect(valuesFromSearch(`?source=${encodeURIComponent('{"type":"union"}')}`)).toEqual({ type: 'union' });
    expect(valuesFromSearch('?source=oops')).toEqual({});
  });
});
