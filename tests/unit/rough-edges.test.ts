import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { refusalSentence } from '../../src/client/accessDenied/plainWords.js';
import { chartDays } from '../../src/client/campaigns/CampaignProgressView.js';
import { keptPage, keptRecordsOf } from '../../src/client/offline/keptRecords.js';
import { setRecordTypes } from '../../src/client/resources/names.js';
import { distinctProjectName } from '../../src/server/seed/demo-names.js';
import { keepFirstPassword, keptFirstPassword } from '../../src/server/system/first-password.js';

/** The rough edges of issue 36 point 7 that are logic rather than screens. */
describe('access denied in plain words', () => {
  it('says what cannot be done to what, and whom to ask', () => {
    expect(refusalSentence('Job Sites', 'create')).toBe("You can't add job sites. Ask an administrator.");
    expect(refusalSentence('Roles', 'read')).toBe("You can't see roles. Ask an administrator.");
    expect(refusalSentence('Users', 'update')).toBe("You can't change users. Ask an administrator.");
    expect(refusalSentence(undefined, 'read')).toBe("You can't see this page. Ask an administrator.");
  });
});

describe("a campaign's chart from day one", () => {
  it('starts at the first day with no card and runs to today', () => {
    expect(chartDays([], '2026-11-20', '2026-11-20')).toEqual([{ day: '2026-11-20', cards: 0, total: 0 }]);
    expect(chartDays([], '2026-11-18', '2026-11-20')).toEqual([
      { day: '2026-11-18', cards: 0, total: 0 },
      { day: '2026-11-20', cards: 0, total: 0 },
    ]);
    expect(chartDays([{ day: '2026-11-19', cards: 2, total: 2 }], '2026-11-18', '2026-11-20')).toEqual([
      { day: '2026-11-18', cards: 0, total: 0 },
      { day: '2026-11-19', cards: 2, total: 2 },
      { day: '2026-11-20', cards: 0, total: 2 },
    ]);
    // Cards signed before the start date (entered late): the chart starts with them.
    expect(chartDays([{ day: '2026-11-10', cards: 1, total: 1 }], '2026-11-18', '2026-11-10')).toEqual([
      { day: '2026-11-10', cards: 1, total: 1 },
    ]);
  });
});

describe('offline: what the device keeps', () => {
  setRecordTypes([
    {
      type: 'site',
      name_singular: 'Site',
      fields: [
        { slug: 'name', name: 'Name' },
        { slug: 'general_contractor_id', name: 'GC', options: { target: 'contractor' } },
        { slug: 'contractor_ids', name: 'Contractors', options: { target: 'contractor', multiple: true } },
        { slug: 'trade_ids', name: 'Trades', options: { target: 'trade', multiple: true } },
      ],
    },
    { type: 'contractor', name_singular: 'Contractor', fields: [] },
    { type: 'trade', name_singular: 'Trade', fields: [] },
  ]);
  const sites = [
    {
      id: 5,
      name: 'Pier 9',
      type: 'union',
      _labels: {
        general_contractor_id: { 62: 'Apex Builders' },
        contractor_ids: { 62: 'Apex Builders', 7: 'Bay Electric' },
      },
    },
    { id: 6, name: 'Open Yard', type: 'non-union', _labels: { trade_ids: { 62: 'Electricians' } } },
  ];

  it('names the records the kept sites link to, by the resource each field points at', () => {
    const contractors = keptRecordsOf(sites, 'contractors');
    expect([...contractors.values()]).toEqual(
      expect.arrayContaining([
        { id: 62, name: 'Apex Builders' },
        { id: 7, name: 'Bay Electric' },
      ]),
    );
    expect(contractors.size).toBe(2);
    // The same id in another field is another resource's record.
    expect(keptRecordsOf(sites, 'trades').get('62')).toEqual({ id: 62, name: 'Electricians' });
    expect(keptRecordsOf(sites, 'sites').get('5')).toBe(sites[0]);
  });

  it('pages, searches and filters what it keeps', () => {
    const kept = keptRecordsOf(sites, 'sites');
    expect(keptPage(kept, { filter: { q: 'pier' } }).data.map((s) => s.id)).toEqual([5]);
    expect(keptPage(kept, { filter: { type: 'non-union' } }).total).toBe(1);
    expect(keptPage(kept, { pagination: { page: 2, perPage: 1 } })).toEqual({ data: [sites[0]], total: 2 });
    // A filter a kept name cannot answer matches nothing rather than everything.
    expect(keptPage(keptRecordsOf(sites, 'contractors'), { filter: { type: 'union' } }).total).toBe(0);
  });
});

describe('demo names', () => {
  it('are never given twice', () => {
    const taken = new Set<string>();
    const names = Array.from({ length: 50 }, (_, i) =>
      distinctProjectName(taken, { word: 'Harbor', kind: 'Tower', street: `${100 + (i % 3)} Main St`, city: 'Fresno' }),
    );
    expect(new Set(names).size).toBe(50);
    expect(names.slice(0, 4)).toEqual(['Harbor Tower', '101 Main St Tower', '102 Main St Tower', '100 Main St Tower']);
  });
});

describe("the first administrator's password", () => {
  it('is kept in a file only its owner may read', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'om-first-'));
    expect(keptFirstPassword(dir)).toBeNull();
    const file = keepFirstPassword(dir, 'admin@example.com', 's3cret-words');
    expect(readFileSync(file, 'utf8')).toContain('s3cret-words');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(keptFirstPassword(dir)).toBe(file);
  });
});
