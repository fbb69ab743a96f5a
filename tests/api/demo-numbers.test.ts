import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamicTables } from '../../src/server/db/dynamic-tables.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * The demo as an organizer's day sees it. One number for one thing (issue 36 point 6): each figure shown in two places comes from one definition. For every
 * demo person: the dashboard's figures of that person equal the user-performance report's for the same period; each
 * figure is the sum of its parts and each part equals the list it opens. A campaign's cards are the same on its page,
 * in its cards list and on its contractor's Campaigns tab. Its names are realistic and distinct (point 7).
 */
let demo: TestApp;
let admin: TestClient;
const PEOPLE = [
  'admin@example.com',
  'leader@example.com',
  'organizer@example.com',
  'organizer2@example.com',
  'assistant@example.com',
];
const KEYS = ['calls', 'meetings', 'visits', 'recruits'] as const;
type Key = (typeof KEYS)[number];
interface Link {
  resource: string;
  filter: Record<string, unknown>;
}
interface Part {
  key: string;
  value: number;
  link: Link;
}
interface Figure {
  key: string;
  value: number;
  link: Link | null;
  parts: Part[];
}
interface PerformanceRow {
  user_id: number;
  done: Record<Key, number | null>;
  parts: Record<Key, Part[]>;
}
interface Campaign {
  id: number;
  contractor_ids: number[];
  progress: { cards: number };
  cards_over_time: Array<{ total: number }>;
}

beforeAll(async () => {
  demo = await startTestApp({ SEED_DEMO: '1' });
  admin = await demo.admin();
}, 300_000);
afterAll(async () => {
  await demo?.close();
});

const total = async (client: TestClient, link: Link) => {
  const res = await client.get(
    `/api/${link.resource}?per_page=1&filter=${encodeURIComponent(JSON.stringify(link.filter))}`,
  );
  expect(res.status, `${link.resource}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body.meta.total as number;
};

describe('one number for one thing (demo data)', () => {
  it("a person's calls, meetings, visits and recruits are the same on the dashboard and in the user-performance report", async () => {
    const people = await demo.ctx.db.selectFrom('users').select(['id', 'email']).where('email', 'in', PEOPLE).execute();
    expect(people).toHaveLength(PEOPLE.length);
    const month = new Date().toISOString().slice(0, 7);
    const today = new Date().toISOString().slice(0, 10);
    let compared = 0;
    let withWork = 0;
    for (const [from, to] of [
      [`${month}-01`, today],
      ['2020-01-01', '2030-12-31'],
    ]) {
      const report = await admin.get(`/api/reports/user-performance?from=${from}&to=${to}`);
      expect(report.status).toBe(200);
      for (const person of people) {
        const row = (report.body.data as PerformanceRow[]).find((r) => r.user_id === person.id)!;
        const stats = await admin.get(`/api/dashboard/statistics?from=${from}&to=${to}&user_id=${person.id}`);
        expect(stats.status).toBe(200);
        // The person's own dashboard against the report as they read it (what they may read counts).
        const own =
          person.email === 'admin@example.com' ? admin : await demo.signIn(person.email, 'admin-password-123');
        const mine = await own.get(`/api/dashboard/statistics?from=${from}&to=${to}`);
        const ownReport = await own.get(`/api/reports/user-performance?from=${from}&to=${to}&user_id=${person.id}`);
        const ownRow = ownReport.status === 200 ? ownReport.body.data[0] : null;
        for (const key of KEYS) {
          const figure = (stats.body.data.figures as Figure[]).find((f) => f.key === key)!;
          const what = `${person.email} ${key} ${from}..${to}`;
          expect(stats.body.data[key], what).toBe(row.done[key]);
          expect(figure.value, what).toBe(row.done[key]);
          expect(figure.parts, what).toEqual(row.parts[key]);
          const ownFigure = (mine.body.data.figures as Figure[]).find((f) => f.key === key);
          if (ownRow) expect(ownFigure?.value ?? null, `${what} (own)`).toBe(ownRow.done[key]);
          expect(
            figure.parts.reduce((sum, part) => sum + part.value, 0),
            what,
          ).toBe(figure.value);
          for (const part of figure.parts)
            expect(await total(admin, part.link), `${what} ${part.key}`).toBe(part.value);
          if (figure.link) expect(await total(admin, figure.link), what).toBe(figure.value);
          if (figure.value > 0) withWork++;
          compared++;
        }
      }
    }
    expect(compared).toBe(PEOPLE.length * KEYS.length * 2);
    // The demo people have done work: the comparison is not of zeros.
    expect(withWork).toBeGreaterThan(10);
  });

  it("a campaign's cards are the same on its page, in its cards list and on its contractor's Campaigns tab", async () => {
    const campaigns = (await admin.get('/api/campaigns?per_page=-1')).body.data as Campaign[];
    expect(campaigns.length).toBeGreaterThan(0);
    for (const campaign of campaigns) {
      const shown = (await admin.get(`/api/campaigns/${campaign.id}`)).body.data as Campaign;
      const cards = await total(admin, { resource: 'campaign-cards', filter: { campaign_id: campaign.id } });
      expect(shown.progress.cards).toBe(cards);
      expect(campaign.progress.cards).toBe(cards);
      expect(shown.cards_over_time.at(-1)?.total ?? 0).toBe(cards);
      for (const contractorId of shown.contractor_ids) {
        const tab = (
          await admin.get(
            `/api/campaigns?per_page=-1&filter=${encodeURIComponent(JSON.stringify({ contractor_ids: contractorId }))}`,
          )
        ).body.data as Campaign[];
        expect(tab.find((c) => c.id === campaign.id)?.progress.cards).toBe(cards);
      }
    }
  });

  it('names its sites and people realistically, none twice', async () => {
    const sites = await demo.ctx.db.selectFrom('sites').select('name').where('deleted_at', 'is', null).execute();
    const siteNames = sites.map((s) => String(s.name).toLowerCase());
    expect(new Set(siteNames).size).toBe(siteNames.length);
    // No name cut short by a letter ("Sierra Plaza T").
    expect(sites.filter((s) => / [A-Z]$/.test(String(s.name)))).toEqual([]);
    const people: string[] = [];
    for (const table of ['contacts', 'members', 'recruits'])
      for (const row of await dynamicTables(demo.ctx.db)
        .selectFrom(table)
        .select(['first_name', 'last_name'])
        .execute())
        people.push(`${row.first_name} ${row.last_name}`);
    expect(people.length).toBeGreaterThan(200);
    expect(new Set(people).size).toBe(people.length);
  });
});
