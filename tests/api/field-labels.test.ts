import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport, upload } from '../fixtures/upload.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * A field made in the schema editor is named by its name everywhere the server names it (issue 20): the importer's
 * targets, an import's row errors, the 422 field errors of the API and the headers of an export; never by its slug,
 * and a choice by its label.
 */
let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  const sites = (await admin.get('/api/schemas?per_page=-1')).body.data.find((s: any) => s.type === 'site');
  const field = async (body: Record<string, unknown>) => {
    const res = await admin.post('/api/schema-fields', { schema_id: sites.id, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  };
  await field({ name: 'Gate Code', type: 'text', options: { max: 5 } });
  await field({ name: 'Crew Size', type: 'number', options: { format: 'integer', min: 0, max: 50 } });
  await field({
    name: 'Risk Level',
    type: 'dropdown',
    options: {
      choices: [
        { value: 'r-low', label: 'Low' },
        { value: 'r-high', label: 'High' },
      ],
    },
  });
  await field({
    name: 'Hazard List',
    type: 'dropdown',
    options: {
      multiple: true,
      choices: [
        { value: 'hz-noise', label: 'Noise' },
        { value: 'hz-dust', label: 'Dust' },
      ],
    },
  });
  await field({ name: 'iPhone Model', type: 'text' });
});
afterAll(async () => {
  await t?.close();
});

const importer = {
  name: 'Labels',
  record_type: 'site',
  columns: [
    { header: 'Name', target: 'site.name' },
    { header: 'Gate', target: 'custom.gate_code' },
    { header: 'Crew', target: 'custom.crew_size' },
    { header: 'Risk', target: 'custom.risk_level' },
    { header: 'Hazards', target: 'custom.hazard_list' },
  ],
};
const file = (rows: string[]) => Buffer.from(['Name,Gate,Crew,Risk,Hazards', ...rows, ''].join('\n'));

describe('the importer', () => {
  it("lists a custom field's target by the field's name", async () => {
    const res = await admin.get('/api/importers/targets?record_type=site');
    expect(res.status).toBe(200);
    const label = (key: string) => res.body.data.site.targets.find((target: any) => target.key === key)?.label;
    expect(label('custom.gate_code')).toBe('Gate Code');
    expect(label('custom.iphone_model')).toBe('iPhone Model');
  });

  it("names the field, not the file's column or the slug, in a row's errors, and takes a choice by its label", async () => {
    const res = await upload(t, admin, '/api/imports/preview', { importer: JSON.stringify(importer) }, [
      { name: 'labels.csv', content: file(['A,TOOLONG,abc,High,"Noise; Dust"', 'B,ok,99,Medium,']) },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [a, b] = res.body.data.rows;
    expect(a.values).toMatchObject({ risk_level: 'r-high', hazard_list: ['hz-noise', 'hz-dust'] });
    expect(a.errors.join(' ')).toContain('Crew Size: "abc" is not a whole number.');
    expect(a.errors.join(' ')).toContain('The gate code may not be longer than 5 characters.');
    expect(b.errors.join(' ')).toContain('The crew size is too large.');
    expect(b.errors.join(' ')).toContain('Risk Level: "Medium" is not one of the choices: Low, High.');
    expect(JSON.stringify([a.errors, b.errors])).not.toMatch(/gate_code|crew_size|risk_level|Crew:/);
  });

  it("says the same in an import's failures", async () => {
    const made = await admin.post('/api/importers', { ...importer, name: 'Labels run', create_related: true });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const done = await runImport(t, admin, made.body.data.id, [
      { name: 'labels.csv', content: file(['Run A,ok,abc,Low,', 'Run B,ok,3,Medium,', 'Run C,ok,3,low,dust']) },
    ]);
    expect(done).toMatchObject({ created_count: 1, failed_count: 2 });
    const failures = (await admin.get(`/api/imports/${done.id}/failures`)).body.data;
    const reasons = Object.fromEntries(failures.map((f: any) => [f.line, f.reason]));
    expect(reasons[2]).toContain('Crew Size: "abc" is not a whole number.');
    expect(reasons[3]).toContain('Risk Level: "Medium" is not one of the choices: Low, High.');
    const c = (await admin.get('/api/sites?filter[name]=Run C')).body.data[0];
    expect(c).toMatchObject({ risk_level: 'r-low', hazard_list: ['hz-dust'] });
  });
});

describe('the API', () => {
  it('names custom fields in its 422 field errors by their names (the choices by the values it takes)', async () => {
    const res = await admin.post('/api/sites', {
      name: 'Labelled',
      type: 'union',
      latitude: 34,
      longitude: -118,
      gate_code: 'TOOLONG',
      crew_size: 99,
      risk_level: 'r-mid',
      hazard_list: ['hz-mud'],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      gate_code: ['The gate code may not be longer than 5 characters.'],
      crew_size: ['The crew size is too large.'],
      risk_level: ['The risk level must be one of: r-low, r-high.'],
      hazard_list: ['Each hazard list must be one of: hz-noise, hz-dust.'],
    });
  });

  it("heads an export's columns with the fields' names as written", async () => {
    const res = await admin.get('/api/exports/download?resource=sites&columns=name,gate_code,iphone_model,risk_level');
    expect(res.status).toBe(200);
    const header = String(res.body)
      .replace(/^\uFEFF/, '')
      .split('\r\n')[0];
    expect(header).toBe('Name,Gate Code,iPhone Model,Risk Level');
  });
});
