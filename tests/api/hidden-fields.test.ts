/**
 * Hidden is not erased (docs/records.md "Form logic", issue 30): a field a rule hides keeps its value unless that rule
 * says to clear it (`clear_hidden`, off unless chosen), and what a hidden field holds is not checked while hidden.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
let resource: string;
let blockId: number;

interface Answer {
  status: number;
  body: { data?: unknown; errors?: Record<string, string[]> };
}
interface Row {
  id: number;
  updated_at: string;
  [key: string]: unknown;
}
const ok = (res: Answer, status = 200) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body.data as Row;
};

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  const schema = ok(
    await admin.post('/api/schemas', {
      name_singular: 'Walkthrough',
      name_plural: 'Walkthroughs',
      fields: [
        { name: 'Result', type: 'radios', options: { choices: ['Pass', 'Fail'] } },
        { name: 'Corrective action', type: 'text', required: true },
      ],
    }),
    201,
  ) as unknown as { id: number; resource: string; fields: Array<{ id: number; slug: string }> };
  resource = schema.resource;
  const ref = (slug: string) => `field:${schema.fields.find((f) => f.slug === slug)!.id}`;
  blockId = ok(
    await admin.post('/api/logic-blocks', {
      schema_id: schema.id,
      description: 'Corrective action only for a failed walkthrough',
      conditions: [{ source: ref('result'), operator: 'equals', value: 'pass' }],
      actions: [{ target: ref('corrective_action'), action: 'hide-field' }],
    }),
    201,
  ).id;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const update = async (id: number, values: Record<string, unknown>) => {
  const row = ok(await admin.get(`/api/${resource}/${id}`));
  return admin.post(`/api/${resource}/${id}`, { ...values, updated_at: row.updated_at });
};

describe('a field a rule hides', () => {
  let id: number;

  it('keeps its value by default: Fail -> Pass leaves the corrective action, Pass -> Fail shows it again', async () => {
    id = ok(
      await admin.post(`/api/${resource}`, { name: 'Level 3', result: 'fail', corrective_action: 'Rail fixed' }),
      201,
    ).id;
    expect(ok(await update(id, { result: 'pass' })).corrective_action).toBe('Rail fixed');
    expect(ok(await admin.get(`/api/${resource}/${id}`)).corrective_action).toBe('Rail fixed');
    expect(ok(await update(id, { result: 'fail' })).corrective_action).toBe('Rail fixed');
  });

  it('is neither required nor checked while hidden: a value it cannot take is left out, the stored one kept', async () => {
    ok(await update(id, { result: 'pass' }));
    const field = (await admin.get(`/api/schema-fields?filter[slug]=corrective_action&per_page=-1`)).body.data[0];
    ok(await admin.post(`/api/schema-fields/${field.id}`, { options: { pattern: '[A-Z0-9 ]+' } }));
    // 'Rail fixed' no longer matches, and the field is hidden: other changes still save.
    expect(ok(await update(id, { name: 'Level 3 east' })).corrective_action).toBe('Rail fixed');
    const kept = ok(await update(id, { corrective_action: 'lower case' }));
    expect(kept.corrective_action).toBe('Rail fixed');
    ok(await admin.post(`/api/${resource}`, { name: 'Level 4', result: 'pass' }), 201);
    // Shown, it is checked and required again.
    expect((await update(id, { result: 'fail', corrective_action: 'lower case' })).status).toBe(422);
    expect((await admin.post(`/api/${resource}`, { name: 'Level 5', result: 'fail' })).status).toBe(422);
    ok(await admin.post(`/api/schema-fields/${field.id}`, { options: {} }));
  });

  it('is cleared when its rule says so (clear when hidden)', async () => {
    ok(await admin.post(`/api/logic-blocks/${blockId}`, { clear_hidden: true }));
    const other = ok(
      await admin.post(`/api/${resource}`, { name: 'Level 6', result: 'fail', corrective_action: 'Guard rail' }),
      201,
    );
    expect(ok(await update(other.id, { result: 'pass' })).corrective_action ?? null).toBe(null);
    const schemas = (await admin.get('/api/schemas?per_page=-1')).body.data;
    const block = schemas
      .flatMap((s: { actions: Array<{ id: number; clear_hidden: boolean }> }) => s.actions)
      .find((b: { id: number }) => b.id === blockId);
    expect(block.clear_hidden).toBe(true);
  });
});
