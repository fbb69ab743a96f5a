import { describe, expect, it } from 'vitest';
import {
  CATEGORY_PERMISSIONS,
  can,
  canAll,
  canAny,
  canOnCategory,
  canOnEntity,
  hasRole,
  inTeam,
  isIncognito,
  type PermissionSubject,
  permittedCategories,
} from '../../src/common/permissions.js';

const subject = (permissions: string[], extra: Partial<PermissionSubject> = {}): PermissionSubject => ({
  role_id: 3,
  team_id: null,
  team_ids: [],
  permissions,
  ...extra,
});

describe('can', () => {
  const organizer = subject(['site:read:union', 'site:update', 'contact:read']);

  it('matches a permission exactly by default', () => {
    expect(can(organizer, 'site:update')).toBe(true);
    expect(can(organizer, 'contact:read')).toBe(true);
    expect(can(organizer, 'site:read')).toBe(false); // only a category of it is held
    expect(can(organizer, 'site:read:pla')).toBe(false);
    expect(can(organizer, 'site')).toBe(false);
    expect(can(organizer, 'contact:rea')).toBe(false);
    expect(can(organizer, '')).toBe(false);
  });

  it('in prefix mode accepts any held permission beginning with it', () => {
    expect(can(organizer, 'site:read', true)).toBe(true);
    expect(can(organizer, 'site:read:union', true)).toBe(true);
    expect(can(organizer, 'site', true)).toBe(true);
    expect(can(organizer, 'site:read:pla', true)).toBe(false);
    expect(can(organizer, 'member:read', true)).toBe(false);
    expect(can(organizer, 'contact:read', true)).toBe(true);
  });

  it('is false for no subject or no permissions', () => {
    expect(can(null, 'site:read')).toBe(false);
    expect(can(undefined, 'site:read', true)).toBe(false);
    expect(can(subject([]), 'site:read', true)).toBe(false);
  });
});

describe('canAny and canAll', () => {
  const reader = subject(['role:read', 'user:read', 'contractor:read:union']);

  it('any: one of the list is enough', () => {
    expect(canAny(reader, ['building-type:create', 'user:read'])).toBe(true);
    expect(canAny(reader, ['building-type:create', 'trade:create'])).toBe(false);
    expect(canAny(reader, [])).toBe(false);
    expect(canAny(reader, ['contractor:read'])).toBe(false);
    expect(canAny(reader, ['contractor:read'], true)).toBe(true);
    expect(canAny(null, ['user:read'])).toBe(false);
  });

  it('all: every one of the list is needed', () => {
    expect(canAll(reader, ['role:read', 'user:read'])).toBe(true);
    expect(canAll(reader, ['role:read', 'user:create'])).toBe(false);
    expect(canAll(reader, [])).toBe(true);
    expect(canAll(reader, ['role:read', 'contractor:read'])).toBe(false);
    expect(canAll(reader, ['role:read', 'contractor:read'], true)).toBe(true);
    expect(canAll(null, ['role:read'])).toBe(false);
  });
});

describe('hasRole', () => {
  it('matches role_id against one id or a list', () => {
    const person = subject([], { role_id: 2 });
    expect(hasRole(person, 2)).toBe(true);
    expect(hasRole(person, 3)).toBe(false);
    expect(hasRole(person, [1, 2])).toBe(true);
    expect(hasRole(person, [1, 3])).toBe(false);
    expect(hasRole(person, [])).toBe(false);
  });

  it('is false without a role or a subject', () => {
    expect(hasRole(subject([], { role_id: null }), 2)).toBe(false);
    expect(hasRole(null, 2)).toBe(false);
  });
});

describe('inTeam', () => {
  it('counts the primary team and every membership', () => {
    const person = subject([], { team_id: 5, team_ids: [7, 9] });
    expect(inTeam(person, 5)).toBe(true);
    expect(inTeam(person, 7)).toBe(true);
    expect(inTeam(person, 9)).toBe(true);
    expect(inTeam(person, 6)).toBe(false);
  });

  it('copes with missing team fields and no subject', () => {
    expect(inTeam({ role_id: 1, permissions: [] }, 5)).toBe(false);
    expect(inTeam(subject([], { team_id: 5 }), 5)).toBe(true);
    expect(inTeam(null, 5)).toBe(false);
  });
});

describe('isIncognito', () => {
  it('reads the role flag', () => {
    expect(isIncognito(subject([], { incognito: true }))).toBe(true);
    expect(isIncognito(subject([], { incognito: false }))).toBe(false);
    expect(isIncognito(subject([]))).toBe(false);
    expect(isIncognito(null)).toBe(false);
  });
});

describe('permittedCategories', () => {
  it("is 'all' with the bare permission, whatever categories are also held", () => {
    expect(permittedCategories(subject(['site:read']), 'site')).toBe('all');
    expect(permittedCategories(subject(['site:read', 'site:read:union']), 'site', 'read')).toBe('all');
    expect(permittedCategories(subject(['site:update']), 'site', 'update')).toBe('all');
  });

  it('lists the categories held for that entity and action only', () => {
    const person = subject([
      'site:read:union',
      'site:read:pla',
      'site:update:union',
      'contractor:read:non-union',
      'site-phase:read',
    ]);
    expect(permittedCategories(person, 'site')).toEqual(['union', 'pla']);
    expect(permittedCategories(person, 'site', 'update')).toEqual(['union']);
    expect(permittedCategories(person, 'site', 'delete')).toEqual([]);
    expect(permittedCategories(person, 'contractor')).toEqual(['non-union']);
  });

  it('does not confuse entities that share a prefix', () => {
    const person = subject(['site-phase:read', 'site-status:read:x']);
    expect(permittedCategories(person, 'site')).toEqual([]);
    expect(permittedCategories(person, 'site-phase')).toBe('all');
  });

  it('is empty with no subject', () => {
    expect(permittedCategories(null, 'site')).toEqual([]);
  });
});

describe('canOnCategory', () => {
  const assistant = subject(['site:read:union', 'site:read:pla', 'contractor:read:union', 'note:read']);

  it('allows only the held categories of a categorised entity', () => {
    expect(canOnCategory(assistant, 'site', 'read', 'union')).toBe(true);
    expect(canOnCategory(assistant, 'site', 'read', 'pla')).toBe(true);
    expect(canOnCategory(assistant, 'site', 'read', 'non-union')).toBe(false);
    expect(canOnCategory(assistant, 'site', 'update', 'union')).toBe(false);
    expect(canOnCategory(assistant, 'contractor', 'read', 'union')).toBe(true);
    expect(canOnCategory(assistant, 'contractor', 'read', 'non-union')).toBe(false);
  });

  it('refuses a row with no category unless the bare permission is held', () => {
    expect(canOnCategory(assistant, 'site', 'read', null)).toBe(false);
    expect(canOnCategory(assistant, 'site', 'read', undefined)).toBe(false);
    expect(canOnCategory(subject(['site:read']), 'site', 'read', null)).toBe(true);
  });

  it('allows every category with the bare permission', () => {
    const leader = subject(['site:read', 'site:delete']);
    for (const category of CATEGORY_PERMISSIONS.site)
      expect(canOnCategory(leader, 'site', 'read', category)).toBe(true);
    expect(canOnCategory(leader, 'site', 'delete', 'union')).toBe(true);
    expect(canOnCategory(leader, 'site', 'update', 'union')).toBe(false);
  });

  it('for entities without categories needs the bare permission', () => {
    expect(canOnCategory(assistant, 'note', 'read', null)).toBe(true);
    expect(canOnCategory(assistant, 'note', 'update', null)).toBe(false);
    // A category-looking permission on an uncategorised entity grants nothing.
    expect(canOnCategory(subject(['user:read:union']), 'user', 'read', 'union')).toBe(false);
  });

  it('is false with no subject', () => {
    expect(canOnCategory(null, 'site', 'read', 'union')).toBe(false);
  });
});

describe('canOnEntity', () => {
  it('is true with the bare permission or any category of it', () => {
    expect(canOnEntity(subject(['site:read:union']), 'site', 'read')).toBe(true);
    expect(canOnEntity(subject(['site:read']), 'site', 'read')).toBe(true);
    expect(canOnEntity(subject(['site:read:union']), 'site', 'update')).toBe(false);
    expect(canOnEntity(subject([]), 'site', 'read')).toBe(false);
  });
});

describe('CATEGORY_PERMISSIONS', () => {
  it('names the categories of SPEC section 6', () => {
    expect([...CATEGORY_PERMISSIONS.site].sort()).toEqual([
      'development',
      'lcmt',
      'non-union',
      'pla',
      'public-works',
      'union',
    ]);
    expect([...CATEGORY_PERMISSIONS.contractor].sort()).toEqual(['non-union', 'union']);
  });
});
