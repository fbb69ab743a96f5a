/**
 * Field rules on two paths of issue 31 point 1 that read fields outside the record list, tested on their own: texts
 * and emails to a list (merge fields and addresses), and the assistant (the types and fields it is told of, what it
 * counts by, the records it reads). A role hiding a contact's last name, phone and email: a message to a list may not
 * name the hidden fields as merge fields and finds no address behind a hidden phone or email; the assistant neither
 * names nor groups by them, nor returns them in a record; and the contact list, ordered by last name by default,
 * is ordered by id for them rather than refused. Each masked check is paired with the administrator's, for
 * whom the same call works, so the test fails if the rule stops applying.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool } from '../../src/server/assistant/tools/index.js';
import { createScope } from '../../src/server/assistant/tools/scope.js';
import type { AuthUser } from '../../src/server/auth/auth-user.js';
import { ok } from '../support/api-answers.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

const HIDDEN = ['last_name', 'phone', 'email'];
/** A field the assistant counts by (a choice), hidden too. */
const GROUP = 'status';
const SEARCH = { filter: { q: 'Quillon' } };

let t: TestApp;
let admin: TestClient;
let masked: TestClient;
let adminUser: AuthUser;
let maskedUser: AuthUser;
const contactIds: number[] = [];

beforeAll(async () => {
  t = await startTestApp({ QUIET_HOURS: '', MESSAGES_PER_MINUTE: '1000' });
  admin = await t.admin();
  for (const [first, phone, email] of [
    ['Quillona', '(555) 010-0101', 'quillona@example.org'],
    ['Quillonb', '555-010-0102', 'quillonb@example.org'],
  ] as const) {
    const made = ok(
      await admin.post('/api/contacts', { first_name: first, last_name: 'Secretname', phone, email }),
      201,
    );
    contactIds.push(Number(made.id));
  }
  ok(
    await admin.post('/api/roles', {
      slug: 'texter-masked',
      name: 'Texter masked',
      permissions: ['contact:read', 'message:send'],
      policy: {
        contact: { fields: Object.fromEntries([...HIDDEN, GROUP].map((field) => [field, 'hidden'])) },
      },
    }),
    201,
  );
  const person = await t.createUser({ role: 'texter-masked', email: 'texter-masked@example.com' });
  masked = await t.signIn(person.email);
  adminUser = await t.authUser();
  maskedUser = await t.authUser('texter-masked@example.com');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const send = (client: TestClient, values: Record<string, unknown>) =>
  client.post('/api/message-sends', { channel: 'sms', person_type: 'contact', query: SEARCH, ...values });

describe('messages to a list under field rules', () => {
  it('refuses a merge field the role hides, naming it, and offers only the fields it shows', async () => {
    const body = 'Hi {{first_name}} {{last_name}}';
    const allowed = await send(admin, { body });
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(201);
    const res = await send(masked, { body });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    const [message] = res.body.errors.body as string[];
    expect(message).toContain('Unknown merge field {{last_name}}');
    const offered = message.slice(message.indexOf('Use one of:'));
    expect(offered).toContain('{{first_name}}');
    for (const field of HIDDEN) expect(offered).not.toContain(`{{${field}}}`);
  });

  it('finds no address behind a phone or an email the role hides', async () => {
    for (const channel of ['sms', 'email'] as const) {
      const values = { channel, body: 'Hi {{first_name}}', ...(channel === 'email' ? { subject: 'Thursday' } : {}) };
      const full = ok(await send(admin, values), 201) as unknown as { total: number; counts: Record<string, number> };
      expect(full.total).toBe(2);
      expect(full.counts.no_address ?? 0, channel).toBe(0);
      const hidden = ok(await send(masked, values), 201) as unknown as {
        total: number;
        counts: Record<string, number>;
      };
      expect(hidden).toMatchObject({ total: 2, counts: { no_address: 2 } });
    }
  });
});

describe('the assistant under field rules', () => {
  const contactFields = async (user: AuthUser) => {
    const result = await runTool('record_types', {}, await createScope(t.ctx, user));
    const types = result.data as Array<{ type: string; fields: Array<{ slug: string }> }>;
    return types.find((type) => type.type === 'contact')?.fields.map((field) => field.slug) ?? [];
  };

  it('is not told of the fields the role hides', async () => {
    const all = await contactFields(adminUser);
    for (const field of [...HIDDEN, GROUP]) expect(all).toContain(field);
    const shown = await contactFields(maskedUser);
    expect(shown).toContain('first_name');
    for (const field of [...HIDDEN, GROUP]) expect(shown).not.toContain(field);
  });

  it('does not count by a hidden field', async () => {
    const args = { type: 'contact', search: 'Quillon', group_by: GROUP };
    const full = await runTool('count_records', args, await createScope(t.ctx, adminUser));
    expect(full.error).toBeUndefined();
    expect(full.data).toMatchObject({ total: 2, group_by: GROUP });
    const refused = await runTool('count_records', args, await createScope(t.ctx, maskedUser));
    expect(refused.error).toMatch(new RegExp(`not by "${GROUP}"`));
    expect(refused.error).not.toContain(GROUP + ',');
  });

  it('reads records without the hidden fields, by search and by id', async () => {
    const stored = ok(await admin.get(`/api/contacts/${contactIds[0]}`)) as Record<string, unknown>;
    // The last name too: a contact's `name` is built from it, so `name` is hidden with it (contacts-resource.ts).
    const secrets = ['phone', 'email', 'last_name'].map((field) => String(stored[field]));
    const search = { type: 'contact', search: 'Quillon' };
    const full = JSON.stringify((await runTool('search_records', search, await createScope(t.ctx, adminUser))).data);
    for (const secret of secrets) expect(full).toContain(secret);
    const found = await runTool('search_records', search, await createScope(t.ctx, maskedUser));
    expect(found.error).toBeUndefined();
    expect(found.records.map((record) => record.id).sort()).toEqual([...contactIds].sort());
    const text = JSON.stringify(found.data);
    expect(text).toContain('Quillona');
    for (const secret of secrets) expect(text).not.toContain(secret);

    const one = { type: 'contact', id: contactIds[0] };
    const whole = JSON.stringify((await runTool('get_record', one, await createScope(t.ctx, adminUser))).data);
    for (const secret of secrets) expect(whole).toContain(secret);
    const shown = JSON.stringify((await runTool('get_record', one, await createScope(t.ctx, maskedUser))).data);
    expect(shown).toContain('Quillona');
    for (const secret of secrets) expect(shown).not.toContain(secret);
  });
});

describe('the list under field rules', () => {
  it('orders a type by id for a role that hides the field of its default order, and refuses that field when asked', async () => {
    const full = await admin.get('/api/contacts?filter[q]=Quillon');
    expect(full.status).toBe(200);
    const listed = await masked.get('/api/contacts?filter[q]=Quillon');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data.map((row: { id: number }) => row.id)).toEqual([...contactIds].sort((a, b) => a - b));
    expect(listed.body.data[0]).not.toHaveProperty('last_name');
    expect(listed.body.data[0]).not.toHaveProperty('name');
    expect(JSON.stringify(listed.body.data)).not.toContain('Secretname');
    expect(full.body.data[0].name).toContain('Secretname');
    expect((await masked.get('/api/contacts?sort=last_name')).status).toBe(422);
  });
});
