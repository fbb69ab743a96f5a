import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLogic } from '../../src/client/records/logic/logic.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * Form logic on the one rule engine (docs/records.md "Form logic"): a block joined by `any`, the comparison and
 * emptiness operators, stored and validated by the API, and applied by the server exactly as the form applies it.
 */
let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
});
afterAll(async () => {
  await t?.close();
});

/** A record type made in the editor: a door knock, whose detail is asked for only when someone was met ("visit" is a built-in type). */
let visit: any;
const ref = (slug: string) => `field:${visit.fields.find((field: any) => field.slug === slug).id}`;
beforeAll(async () => {
  const created = await admin.post('/api/schemas', {
    name_singular: 'Door knock',
    name_plural: 'Door knocks',
    fields: [
      {
        name: 'Outcome',
        type: 'radios',
        options: {
          choices: [
            { value: 'home', label: 'Home' },
            { value: 'not_home', label: 'Not home' },
          ],
        },
      },
      { name: 'Hours on site', type: 'estimated-hours' },
      { name: 'Visited on', type: 'date' },
      { name: 'Detail', type: 'text', required: true },
    ],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  visit = created.body.data;
});

describe('a block joined by any', () => {
  it('is stored with its match, and the server hides (so never requires) what the form hides, for the same values', async () => {
    const schema = visit;
    const block = await admin.post('/api/logic-blocks', {
      schema_id: schema.id,
      description: 'No detail when nobody was met',
      match: 'any',
      conditions: [
        { source: ref('outcome'), operator: 'equals', value: 'not_home' },
        { source: ref('hours_on_site'), operator: 'less-than', value: '1' },
      ],
      actions: [{ target: ref('detail'), action: 'hide-field' }],
    });
    expect(block.status, JSON.stringify(block.body)).toBe(201);
    expect(block.body.data).toMatchObject({
      match: 'any',
      trigger: 'always',
      conditions: [{ operator: 'equals' }, { operator: 'less-than', value: '1' }],
    });

    const stored = (await admin.get('/api/schemas?per_page=-1')).body.data.find((s: any) => s.id === schema.id);
    expect(stored.actions).toHaveLength(1);
    expect(stored.actions[0].match).toBe('any');

    const cases: Array<[Record<string, unknown>, boolean]> = [
      [{ outcome: 'not_home', hours_on_site: 3 }, true],
      [{ outcome: 'home', hours_on_site: 0 }, true],
      [{ outcome: 'not_home', hours_on_site: 0 }, true],
      [{ outcome: 'home', hours_on_site: 3 }, false],
      // A missing number is not less than 1: the detail is asked for.
      [{ outcome: 'home' }, false],
    ];
    for (const [values, hidden] of cases) {
      // The form, given the schema as the API serves it...
      const form = runLogic(stored.actions, values, stored.fields, { kind: 'all' });
      expect(form.visibility.detail, JSON.stringify(values)).toBe(hidden ? 'hidden' : 'visible');
      // ...and the server agree: a hidden detail is not required, a shown one is.
      const saved = await admin.post(`/api/${schema.resource}`, { name: 'Door knock', ...values });
      if (hidden) expect(saved.status, JSON.stringify(saved.body)).toBe(201);
      else {
        expect(saved.status, JSON.stringify(values)).toBe(422);
        expect(saved.body.errors).toEqual({ detail: ['The detail field is required.'] });
      }
    }
  });

  it('a block without a match joins its conditions by all, as before', async () => {
    const schema = visit;
    const block = await admin.post('/api/logic-blocks', {
      schema_id: schema.id,
      conditions: [
        { source: ref('outcome'), operator: 'equals', value: 'home' },
        { source: ref('visited_on'), operator: 'before', value: '2026-01-01' },
      ],
      actions: [{ target: ref('hours_on_site'), action: 'hide-field' }],
    });
    expect(block.status, JSON.stringify(block.body)).toBe(201);
    expect(block.body.data.match).toBe('all');
    const stored = (await admin.get(`/api/schemas/${schema.id}`)).body.data;
    const hidden = (values: Record<string, unknown>) =>
      runLogic(stored.actions, values, stored.fields, { kind: 'all' }).visibility.hours_on_site;
    expect(hidden({ outcome: 'home', visited_on: '2025-12-31' })).toBe('hidden');
    expect(hidden({ outcome: 'home', visited_on: '2026-01-01' })).toBe('visible');
    expect(hidden({ outcome: 'not_home', visited_on: '2025-12-31' })).toBe('visible');
  });
});

describe('validation of the rule engine operators', () => {
  it('refuses an unknown match, a comparison with a value it cannot compare, and keeps what it can', async () => {
    const list = (await admin.get('/api/schemas?per_page=-1')).body.data;
    const grievance = list.find((s: any) => s.type === 'grievance');
    const field = (slug: string) => `field:${grievance.fields.find((f: any) => f.slug === slug).id}`;

    const badMatch = await admin.post('/api/logic-blocks', {
      schema_id: grievance.id,
      match: 'some',
      actions: [{ target: field('closed_at'), action: 'show-field' }],
    });
    expect(badMatch.status).toBe(422);
    expect(Object.keys(badMatch.body.errors)).toEqual(['match']);

    const badValues = await admin.post('/api/logic-blocks', {
      schema_id: grievance.id,
      conditions: [
        { source: field('status'), operator: 'is-empty', value: null },
        { source: field('closed_at'), operator: 'after', value: 'soon' },
        { source: field('title'), operator: 'greater-than', value: 'lots' },
      ],
      actions: [{ target: field('description'), action: 'hide-field' }],
    });
    expect(badValues.status).toBe(422);
    expect(badValues.body.errors).toEqual({
      'conditions.1.value': ['Compare with a date (2026-03-01).'],
      'conditions.2.value': ['Compare with a number.'],
    });

    const block = await admin.post('/api/logic-blocks', {
      schema_id: grievance.id,
      conditions: [{ source: field('status'), operator: 'is-not-empty', value: null }],
      actions: [{ target: field('description'), action: 'show-field' }],
    });
    expect(block.status, JSON.stringify(block.body)).toBe(201);
    const id = block.body.data.id;
    // One condition at a time: its value is checked with its operator, and the error lands on `value`.
    const later = await admin.post('/api/logic-conditions', {
      logic_block_id: id,
      source: field('closed_at'),
      operator: 'before',
      value: 'next week',
    });
    expect(later.status).toBe(422);
    expect(later.body.errors).toEqual({ value: ['Compare with a date (2026-03-01).'] });
    const fine = await admin.post('/api/logic-conditions', {
      logic_block_id: id,
      source: field('closed_at'),
      operator: 'before',
      value: '2026-03-01',
    });
    expect(fine.status, JSON.stringify(fine.body)).toBe(201);
    const changed = await admin.post(`/api/logic-conditions/${fine.body.data.id}`, { operator: 'after' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const wrong = await admin.post(`/api/logic-conditions/${fine.body.data.id}`, { operator: 'at-least' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ value: ['Compare with a number.'] });
    expect((await admin.post(`/api/logic-blocks/${id}`, { match: 'any' })).body.data.match).toBe('any');
    expect((await admin.delete(`/api/logic-blocks/${id}`)).status).toBe(200);
  });
});
