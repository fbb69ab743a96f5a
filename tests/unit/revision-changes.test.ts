import { describe, expect, it } from 'vitest';
import { changesOf } from '../../src/server/records/revisions.js';

/** A revision's changes (records/revisions.ts changesOf): `{field: [before, after]}` for each value that differs. */
describe('changesOf', () => {
  it('a created record: every value it holds, none of its empty ones, dates and lists as they are', () => {
    const when = new Date('1970-01-01T00:00:00Z');
    expect(
      changesOf({}, { name: 'A', value: 0, empty: null, missing: undefined, when, trades: [1, 2], custom: {} }),
    ).toEqual({ name: [null, 'A'], value: [null, 0], when: [null, when], trades: [null, [1, 2]], custom: [null, {}] });
  });

  it('an update: only what differs, numbers by value, dates by instant, lists and objects by content', () => {
    const before = { name: 'A', value: '12.50', when: new Date('2026-03-01T00:00:00Z'), trades: [1, 2], gone: 'x' };
    const after = { name: 'A', value: 12.5, when: new Date('2026-03-01T00:00:00Z'), trades: [1, 3], gone: null };
    expect(changesOf(before, after)).toEqual({
      trades: [
        [1, 2],
        [1, 3],
      ],
      gone: ['x', null],
    });
  });

  it('a password is never written out', () => {
    expect(changesOf({}, { password: 'secret' })).toEqual({ password: ['••••', '••••'] });
  });
});
