import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * A public form's link field (docs/public-forms.md "Links to other records"): a sign-up's employer chosen by name
 * among the contractors its form offers (a saved view, or all of them), searched by strangers (names only, at most
 * ten, rate-limited per address), and on submit only an offered id accepted: a forged one is a 422.
 */
let t: TestApp;
let admin: TestClient;
const SEARCHES = 6;
let address = 0;
const ids: Record<string, number> = {};

/** A visitor from an address of their own (TRUST_PROXY is on): each test's rate counts start at zero. */
const visitor = () => {
  const client = t.client();
  const headers = { 'x-forwarded-for': `198.51.100.${++address}` };
  return {
    get: (path: string) => client.get(path, { headers }),
    post: (path: string, body: unknown) => client.post(path, body, { headers }),
  };
};
const search = (client: ReturnType<typeof visitor>, q: string, slug = 'union-sign-up', field = 'contractor_id') =>
  client.get(`/api/public-forms/by-slug/${slug}/fields/${field}/options?q=${encodeURIComponent(q)}`);
const signUp = (client: ReturnType<typeof visitor>, values: Record<string, unknown>, slug = 'union-sign-up') =>
  client.post(`/api/public-forms/by-slug/${slug}/submissions`, { values: { first_name: 'Lena', ...values } });
const form = (title: string, viewId: number | null, extra: Record<string, unknown> = {}) =>
  admin.post('/api/public-forms', {
    title,
    kind: 'record',
    record_type: 'contact',
    fields: ['first_name', 'last_name', 'contractor_id'],
    offers: { contractor_id: { view_id: viewId } },
    thank_you: 'Thanks!',
    ...extra,
  });

let unionView: number;

beforeAll(async () => {
  t = await startTestApp({ TRUST_PROXY: 'true', PUBLIC_FORM_SEARCHES_PER_HOUR: String(SEARCHES) });
  admin = await t.admin();
  for (const [name, type] of [
    ['Acme Drywall', 'union'],
    ['Acme Roofing', 'non-union'],
    ['Basin Electric', 'union'],
    ['Acme Gone', 'union'],
  ]) {
    const made = await admin.post('/api/contractors', { name, type });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    ids[name] = made.body.data.id;
  }
  expect((await admin.delete(`/api/contractors/${ids['Acme Gone']}`)).status).toBeLessThan(300);
  const view = await admin.post('/api/views', {
    name: 'Union contractors',
    record_type: 'contractor',
    filters: { all: [{ field: 'type', op: 'eq', value: 'union' }] },
  });
  expect(view.status, JSON.stringify(view.body)).toBe(201);
  unionView = view.body.data.id;
  const made = await form('Union sign-up', unionView);
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  expect(made.body.data.offers).toEqual({ contractor_id: { view_id: unionView } });
  expect((await form('Any employer', null)).status).toBe(201);
});
afterAll(async () => {
  await t?.close();
});

describe('publishing a form with a link', () => {
  it('needs the records offered named, and a view of the linked type', async () => {
    const without = await form('No offer', null, { offers: {} });
    expect(without.status).toBe(422);
    expect(without.body.errors.fields[0]).toMatch(/"Employer" links to other records: choose which of them/);
    const sites = await admin.post('/api/views', { name: 'All sites', record_type: 'site' });
    expect(sites.status, JSON.stringify(sites.body)).toBe(201);
    const wrongType = await form('Wrong view', sites.body.data.id);
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.errors['offers.contractor_id'][0]).toMatch(/shows site records, not contractor records/);
    const missing = await form('Missing view', 999_999);
    expect(missing.status).toBe(422);
    expect(missing.body.errors['offers.contractor_id'][0]).toMatch(/No view has the id 999999/);
  });

  it('shows the field as a search box, without the view or any id', async () => {
    const page = await visitor().get('/api/public-forms/by-slug/union-sign-up');
    expect(page.status).toBe(200);
    const field = page.body.data.fields.find((f: { slug: string }) => f.slug === 'contractor_id');
    expect(field).toMatchObject({ name: 'Employer', input: 'search', choices: [] });
    expect(JSON.stringify(page.body)).not.toMatch(/view|Acme|Basin/);
  });
});

describe('searching a link field', () => {
  it('offers the names of the view’s records holding what was typed: names and ids only', async () => {
    const found = await search(visitor(), 'acme');
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    // Acme Roofing is not in the view; Acme Gone is deleted.
    expect(found.body.data).toEqual([{ id: ids['Acme Drywall'], name: 'Acme Drywall' }]);
    const all = await search(visitor(), 'acme', 'any-employer');
    expect(all.body.data.map((o: { name: string }) => o.name)).toEqual(['Acme Drywall', 'Acme Roofing']);
  });

  it('answers nothing for fewer than two letters, and 404 for a field the form does not link', async () => {
    expect((await search(visitor(), 'a')).body.data).toEqual([]);
    expect((await search(visitor(), 'ac', 'union-sign-up', 'first_name')).status).toBe(404);
    expect((await search(visitor(), 'ac', 'no-such-form')).status).toBe(404);
  });

  it('is limited per address (429 with Retry-After), other addresses unaffected', async () => {
    const client = visitor();
    for (let i = 0; i < SEARCHES; i++) expect((await search(client, 'bas')).status).toBe(200);
    const refused = await search(client, 'basi');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await search(visitor(), 'basi')).status).toBe(200);
  });
});

describe('submitting a form with a link', () => {
  it('writes the record with the offered record picked', async () => {
    const sent = await signUp(visitor(), { last_name: 'Picked', contractor_id: ids['Basin Electric'] });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const contact = await t.ctx.db
      .selectFrom('contacts')
      .select('contractor_id')
      .where('last_name', '=', 'Picked')
      .executeTakeFirstOrThrow();
    expect(contact.contractor_id).toBe(ids['Basin Electric']);
  });

  it('refuses an id it would not offer (422): outside the view, deleted, unknown, or a name typed but not picked', async () => {
    for (const forged of [ids['Acme Roofing'], ids['Acme Gone'], 999_999, 'Acme Drywall', -1]) {
      const refused = await signUp(visitor(), { last_name: 'Forged', contractor_id: forged });
      expect(refused.status, JSON.stringify(forged)).toBe(422);
      expect(refused.body.errors.contractor_id[0]).toMatch(/Choose one of the names offered/);
    }
    const none = await t.ctx.db.selectFrom('contacts').select('id').where('last_name', '=', 'Forged').execute();
    expect(none).toEqual([]);
    // The same id is accepted where the form offers all contractors.
    const all = await signUp(visitor(), { last_name: 'Roofer', contractor_id: ids['Acme Roofing'] }, 'any-employer');
    expect(all.status, JSON.stringify(all.body)).toBe(201);
  });

  it('leaves an optional link empty', async () => {
    const sent = await signUp(visitor(), { last_name: 'Nolink' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  });
});
