/**
 * The one filter compiler (server filters/): `filters=` on a list, with AND/OR groups, every operator on every kind of
 * field of a record type made in the app, relative dates in the organization's time zone across a month's end and a
 * change of clock, conditions on a related record's fields, the old `filter[field]=value` through the same compiler,
 * 422s naming what is wrong, and the access rules still applied under every filter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
let resource: string;
const contractors: Record<string, number> = {};
const sites: Record<string, number> = {};
const ids: Record<string, number> = {};

interface Answer {
  status: number;
  body: { data?: unknown; errors?: Record<string, string[]> };
}
// biome-ignore lint/suspicious/noExplicitAny: an answer's data is whatever the endpoint returns
const ok = (res: Answer, status = 200): any => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body.data;
};

/** The names of the records a filter finds, sorted. */
async function found(filters: unknown, path = resource, client = admin): Promise<string[]> {
  const rows = ok(await client.get(`/api/${path}?per_page=-1&filters=${encodeURIComponent(JSON.stringify(filters))}`));
  return rows.map((row: { name: string }) => row.name).sort();
}
const one = (field: string, op: string, value?: unknown) => ({ all: [{ field, op, value }] });

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  for (const [name, type] of [
    ['Acme Union Builders', 'union'],
    ['Open Shop Co', 'non-union'],
  ])
    contractors[name] = ok(await admin.post('/api/contractors', { name, type }), 201).id;
  for (const [name, type, contractor] of [
    ['Harbor Tower', 'union', 'Acme Union Builders'],
    ['Valley Mall', 'non-union', 'Open Shop Co'],
    ['Union Hall Annex', 'union', null],
  ] as const)
    sites[name] = ok(
      await admin.post('/api/sites', {
        name,
        type,
        general_contractor_id: contractor ? contractors[contractor] : null,
        contractors: contractor ? [{ contractor_id: contractors[contractor], trade_id: null }] : [],
      }),
      201,
    ).id;
  const schema = ok(
    await admin.post('/api/schemas', {
      name_singular: 'Inspection',
      name_plural: 'Inspections',
      fields: [
        { name: 'Remarks', type: 'text' },
        { name: 'Score', type: 'number' },
        { name: 'Visited on', type: 'date' },
        { name: 'Visited at', type: 'datetime' },
        { name: 'Certified', type: 'boolean' },
        {
          name: 'Result',
          type: 'dropdown',
          options: {
            choices: [
              { value: 'pass', label: 'Pass' },
              { value: 'fail', label: 'Fail' },
            ],
          },
        },
        {
          name: 'Areas',
          type: 'dropdown',
          options: {
            multiple: true,
            choices: [
              { value: 'roof', label: 'Roof' },
              { value: 'yard', label: 'Yard' },
            ],
          },
        },
        { name: 'Contractor', type: 'relation', options: { target: 'contractor' } },
        { name: 'Sites', type: 'relation', options: { target: 'site', multiple: true } },
        { name: 'Extra', type: 'json' },
      ],
    }),
    201,
  );
  resource = String(schema.resource);
  const rows = [
    {
      name: 'A',
      remarks: 'Loose railing',
      score: 10,
      visited_on: '2026-02-28',
      visited_at: '2026-03-01T07:59:00Z', // 23:59 on 28 February in Los Angeles
      certified: true,
      result: 'pass',
      areas: ['roof'],
      contractor: contractors['Acme Union Builders'],
      sites: [sites['Harbor Tower']],
    },
    {
      name: 'B',
      remarks: 'railing fixed',
      score: 20,
      visited_on: '2026-03-01',
      visited_at: '2026-03-01T08:00:00Z', // midnight starting 1 March in Los Angeles
      certified: false,
      result: 'fail',
      areas: ['roof', 'yard'],
      contractor: contractors['Open Shop Co'],
      sites: [sites['Valley Mall'], sites['Union Hall Annex']],
    },
    {
      name: 'C',
      remarks: 'Clean',
      score: 30,
      visited_on: '2026-03-31',
      visited_at: '2026-03-09T06:30:00Z', // 23:30 on Sunday 8 March (the clocks went forward at 02:00 that day)
      certified: true,
      result: 'pass',
      areas: [],
      contractor: null,
      sites: [],
    },
    {
      name: 'D',
      visited_at: '2026-03-09T07:30:00Z', // 00:30 on Monday 9 March, daylight time
      visited_on: '2026-04-01',
    },
  ];
  for (const row of rows) ids[row.name] = ok(await admin.post(`/api/${resource}`, row), 201).id;
}, 180_000);
afterAll(async () => {
  await t?.close();
});

describe('every operator on every kind of field', () => {
  const cases: Array<[string, string, unknown, string[]]> = [
    // text
    ['remarks', 'eq', 'LOOSE RAILING', ['A']],
    ['remarks', 'neq', 'clean', ['A', 'B', 'D']],
    ['remarks', 'contains', 'railing', ['A', 'B']],
    ['remarks', 'starts_with', 'rail', ['B']],
    ['remarks', 'empty', undefined, ['D']],
    ['remarks', 'not_empty', undefined, ['A', 'B', 'C']],
    ['remarks', 'in', ['Clean', 'railing fixed'], ['B', 'C']],
    // number
    ['score', 'eq', 20, ['B']],
    ['score', 'neq', 20, ['A', 'C', 'D']],
    ['score', 'gt', 10, ['B', 'C']],
    ['score', 'gte', 20, ['B', 'C']],
    ['score', 'lt', 20, ['A']],
    ['score', 'lte', 20, ['A', 'B']],
    ['score', 'between', [15, 30], ['B', 'C']],
    ['score', 'in', [10, 30], ['A', 'C']],
    ['score', 'empty', undefined, ['D']],
    ['score', 'not_empty', undefined, ['A', 'B', 'C']],
    // date
    ['visited_on', 'eq', '2026-03-01', ['B']],
    ['visited_on', 'gte', '2026-03-01', ['B', 'C', 'D']],
    ['visited_on', 'lt', '2026-03-01', ['A']],
    ['visited_on', 'between', ['2026-03-01', '2026-03-31'], ['B', 'C']],
    // date-time
    ['visited_at', 'gte', '2026-03-01T08:00:00Z', ['B', 'C', 'D']],
    ['visited_at', 'between', ['2026-03-01T00:00:00Z', '2026-03-01T07:59:00Z'], ['A']],
    // yes/no
    ['certified', 'eq', true, ['A', 'C']],
    ['certified', 'eq', false, ['B']],
    ['certified', 'empty', undefined, ['D']],
    // one choice
    ['result', 'eq', 'Pass', ['A', 'C']],
    ['result', 'neq', 'pass', ['B', 'D']],
    ['result', 'in', ['fail'], ['B']],
    ['result', 'empty', undefined, ['D']],
    // several choices
    ['areas', 'eq', 'yard', ['B']],
    ['areas', 'includes', ['yard', 'roof'], ['A', 'B']],
    ['areas', 'has_none', undefined, ['C', 'D']],
    ['areas', 'has_any', undefined, ['A', 'B']],
    // one related record
    ['contractor', 'eq', 'CONTRACTOR:Open Shop Co', ['B']],
    ['contractor', 'includes', ['CONTRACTOR:Acme Union Builders'], ['A']],
    ['contractor', 'has_none', undefined, ['C', 'D']],
    ['contractor', 'has_any', undefined, ['A', 'B']],
    // several related records
    ['sites', 'includes', ['SITE:Union Hall Annex'], ['B']],
    ['sites', 'has_none', undefined, ['C', 'D']],
    ['sites', 'has_any', undefined, ['A', 'B']],
  ];
  const value = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(value)
      : typeof v === 'string' && v.startsWith('CONTRACTOR:')
        ? contractors[v.slice(11)]
        : typeof v === 'string' && v.startsWith('SITE:')
          ? sites[v.slice(5)]
          : v;
  it.each(cases)('%s %s %j', async (field, op, v, expected) => {
    expect(await found(one(field, op, value(v)))).toEqual(expected);
  });
});

describe("the list query's X_null means what the view filters' empty / has_none mean", () => {
  /** The names a list query's `filter={...}` finds, sorted. */
  async function listed(filter: Record<string, unknown>, path = resource): Promise<string[]> {
    const rows = ok(await admin.get(`/api/${path}?per_page=-1&filter=${encodeURIComponent(JSON.stringify(filter))}`));
    return rows.map((row: { name: string }) => row.name).sort();
  }
  it.each([
    ['areas', 'has_none', 'has_any'],
    ['sites', 'has_none', 'has_any'],
    ['contractor', 'has_none', 'has_any'],
    ['remarks', 'empty', 'not_empty'],
  ])('%s_null true and false', async (field, none, any) => {
    expect(await listed({ [`${field}_null`]: true })).toEqual(await found(one(field, none)));
    expect(await listed({ [`${field}_null`]: false })).toEqual(await found(one(field, any)));
  });
  it('a list of related records in a link table (contractors with no contact)', async () => {
    const contact = ok(
      await admin.post('/api/contacts', {
        first_name: 'Pat',
        last_name: 'Linked',
        contractor_ids: [contractors['Acme Union Builders']],
      }),
      201,
    );
    expect(contact.contractor_ids).toEqual([contractors['Acme Union Builders']]);
    const none = await listed({ contact_ids_null: true }, 'contractors');
    expect(none).toContain('Open Shop Co');
    expect(none).not.toContain('Acme Union Builders');
    expect(none).toEqual(await found(one('contact_ids', 'has_none'), 'contractors'));
    expect(await listed({ contact_ids_null: false }, 'contractors')).toEqual(['Acme Union Builders']);
    expect(await listed({ contact_ids_null: false }, 'contractors')).toEqual(
      await found(one('contact_ids', 'has_any'), 'contractors'),
    );
  });
});

describe('AND/OR groups', () => {
  it('nests a group of any inside a group of all, and all inside any', async () => {
    expect(
      await found({
        all: [
          { field: 'certified', op: 'eq', value: true },
          {
            any: [
              { field: 'score', op: 'lt', value: 15 },
              { field: 'remarks', op: 'eq', value: 'clean' },
            ],
          },
        ],
      }),
    ).toEqual(['A', 'C']);
    expect(
      await found({
        any: [
          {
            all: [
              { field: 'result', op: 'eq', value: 'pass' },
              { field: 'score', op: 'gt', value: 15 },
            ],
          },
          { field: 'score', op: 'empty' },
        ],
      }),
    ).toEqual(['C', 'D']);
    expect(await found({ any: [] })).toEqual(['A', 'B', 'C', 'D']);
  });

  it('finds with "is x or is y" on one field what each finds, by each field type\'s own comparison', async () => {
    const anyOf = (...items: Array<[string, unknown]>) => ({
      any: items.map(([field, value]) => ({ field, op: 'eq', value })),
    });
    // Choices, numbers and dates: one `in` over the values.
    expect(await found(anyOf(['result', 'pass'], ['result', 'fail']))).toEqual(['A', 'B', 'C']);
    expect(await found(anyOf(['score', 10], ['score', 30], ['certified', false]))).toEqual(['A', 'B', 'C']);
    expect(await found(anyOf(['visited_on', '2026-02-28'], ['visited_on', '2026-04-01']))).toEqual(['A', 'D']);
    // Text is compared without case, each value on its own.
    expect(await found(anyOf(['remarks', 'CLEAN'], ['remarks', 'loose railing']))).toEqual(['A', 'C']);
    // A list's keys as people type them ('Non-Union'), beside a relation condition in the same group.
    expect(
      await found(
        {
          any: [
            { field: 'type', op: 'eq', value: 'Non-Union' },
            { field: 'type', op: 'eq', value: 'pla' },
            { field: 'general_contractor_id.type', op: 'eq', value: 'union' },
          ],
        },
        'sites',
      ),
    ).toEqual(['Harbor Tower', 'Valley Mall']);
    refusedOn(
      await admin.get(
        `/api/${resource}?filters=${encodeURIComponent(JSON.stringify(anyOf(['score', 10], ['score', 'many'])))}`,
      ),
      'filters',
      /score/,
    );
  });

  it('adds to the old filter[field]=value, which still works through the same compiler', async () => {
    const rows = ok(
      await admin.get(
        `/api/${resource}?per_page=-1&filter[result]=pass&filter[score_gte]=20&filters=${encodeURIComponent(JSON.stringify(one('certified', 'eq', true)))}`,
      ),
    );
    expect(rows.map((row: { name: string }) => row.name)).toEqual(['C']);
    refusedOn(await admin.get(`/api/${resource}?filter[score]=many`), 'filter', /must be a number/);
  });
});

function refusedOn(res: Answer, key: string, message: RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body.errors?.[key]?.join(' '), JSON.stringify(res.body)).toMatch(message);
}

describe('what the compiler refuses (422 naming it)', () => {
  const refused = async (filters: unknown, message: RegExp) =>
    refusedOn(
      await admin.get(
        `/api/${resource}?filters=${encodeURIComponent(typeof filters === 'string' ? filters : JSON.stringify(filters))}`,
      ),
      'filters',
      message,
    );
  it('an unknown field, an unknown operator, a value that does not fit, a shape that is no filter', async () => {
    await refused(one('colour', 'eq', 'red'), /no field "colour"/);
    await refused(one('score', 'resembles', 1), /"resembles" is not a filter of "score"/);
    await refused(one('remarks', 'date', 'today'), /"date" is not a filter of "remarks"/);
    await refused(one('score', 'eq', 'many'), /score: .*must be a number/);
    // A type offers the view operators that build on its own: a JSON field (like, null) has no "between".
    await refused(one('extra', 'between', [1, 2]), /"between" is not a filter of "extra": use one of .*contains/);
    await refused(one('score', 'between', [1]), /two values/);
    await refused(one('visited_on', 'date', 'someday'), /"someday" is not a relative date/);
    await refused(one('visited_on', 'date', { last_days: 0 }), /whole number from 1/);
    await refused(one('contractor.colour', 'eq', 'x'), /no field "colour"/);
    await refused(one('remarks.name', 'eq', 'x'), /"remarks" is not a relation/);
    await refused('{"all": [', /must be JSON/);
    await refused({ all: [{ field: 'score' }] }, /needs its "op"/);
    await refused({ all: [], any: [] }, /one key/);
  });
});

describe('relative dates in the organization’s time zone', () => {
  const at = (instant: string) => {
    t.ctx.records.now = () => new Date(instant);
    t.ctx.records.timeZone = 'America/Los_Angeles';
  };
  afterAll(() => {
    t.ctx.records.now = () => new Date();
    t.ctx.records.timeZone = 'UTC';
  });

  it('reads days where the organization is: late on 31 March there is 1 April in UTC', async () => {
    at('2026-04-01T06:30:00Z'); // 23:30 on 31 March in Los Angeles
    expect(await found(one('visited_on', 'date', 'today'))).toEqual(['C']);
    expect(await found(one('visited_on', 'date', 'tomorrow'))).toEqual(['D']);
    expect(await found(one('visited_on', 'date', 'this_month'))).toEqual(['B', 'C']);
    expect(await found(one('visited_on', 'date', 'last_month'))).toEqual(['A']);
    expect(await found(one('visited_on', 'date', 'next_month'))).toEqual(['D']);
    expect(await found(one('visited_on', 'date', 'this_quarter'))).toEqual(['A', 'B', 'C']);
    expect(await found(one('visited_on', 'date', 'next_quarter'))).toEqual(['D']);
    expect(await found(one('visited_on', 'date', 'this_year'))).toEqual(['A', 'B', 'C', 'D']);
    expect(await found(one('visited_on', 'date', 'last_year'))).toEqual([]);
    expect(await found(one('visited_on', 'date', { last_days: 31 }))).toEqual(['B', 'C']);
    expect(await found(one('visited_on', 'date', 'last_32_days'))).toEqual(['A', 'B', 'C']);
    expect(await found(one('visited_on', 'date', 'next_2_days'))).toEqual(['C', 'D']);
    // The same moment in UTC is 1 April.
    t.ctx.records.timeZone = 'UTC';
    expect(await found(one('visited_on', 'date', 'today'))).toEqual(['D']);
  });

  it('starts a month at local midnight for date-times: 07:59 UTC on 1 March is still February there', async () => {
    at('2026-03-15T12:00:00Z');
    expect(await found(one('visited_at', 'date', 'this_month'))).toEqual(['B', 'C', 'D']);
    expect(await found(one('visited_at', 'date', 'last_month'))).toEqual(['A']);
  });

  it('counts a week across the change to daylight time (167 hours) from local midnight on Monday', async () => {
    at('2026-03-10T20:00:00Z'); // Tuesday 10 March, daylight time
    expect(await found(one('visited_at', 'date', 'this_week'))).toEqual(['D']);
    // 23:30 on Sunday 8 March is last week; 00:00 on Sunday 1 March (B) the week before.
    expect(await found(one('visited_at', 'date', 'last_week'))).toEqual(['C']);
    at('2026-03-08T20:00:00Z'); // Sunday 8 March, the day the clocks went forward
    expect(await found(one('visited_at', 'date', 'today'))).toEqual(['C']);
    expect(await found(one('visited_at', 'date', 'next_week'))).toEqual(['D']);
  });
});

describe('conditions on a related record’s fields', () => {
  it('one related record (a relation field) and several (a pivot of the site)', async () => {
    expect(await found(one('contractor.type', 'eq', 'union'))).toEqual(['A']);
    expect(await found(one('sites.name', 'contains', 'annex'))).toEqual(['B']);
    expect(await found(one('general_contractor_id.type', 'eq', 'Non-Union'), 'sites')).toEqual(['Valley Mall']);
    expect(await found(one('contractor_ids.name', 'starts_with', 'acme'), 'sites')).toEqual(['Harbor Tower']);
    expect(
      await found({ any: [one('contractor.type', 'eq', 'non-union'), { field: 'remarks', op: 'eq', value: 'clean' }] }),
    ).toEqual(['B', 'C']);
  });
});

describe('the access rules still apply under every filter', () => {
  it('a person who reads union sites only finds no other site, whatever the filter says', async () => {
    const slug = 'union-sites-only';
    ok(
      await admin.post('/api/roles', {
        slug,
        name: 'Union sites only',
        permissions: ['site:read:union', `${resource.replace(/s$/, '')}:read`],
      }),
      201,
    );
    const person = await t.createUser({ role: slug, email: 'union-reader@example.com' });
    const reader = await t.signIn(String(person.email));
    const filters = [
      one('type', 'eq', 'non-union'),
      { any: [one('type', 'eq', 'non-union'), one('name', 'contains', 'a')] },
      one('general_contractor_id', 'has_any'),
      one('name', 'not_empty'),
    ];
    for (const filter of filters)
      for (const name of await found(filter, 'sites', reader))
        expect(['Harbor Tower', 'Union Hall Annex']).toContain(name);
    expect(await found(one('type', 'eq', 'non-union'), 'sites', reader)).toEqual([]);
    // A condition on related records the person may not read is refused, not answered.
    const res = await reader.get(
      `/api/sites?filters=${encodeURIComponent(JSON.stringify(one('general_contractor_id.type', 'eq', 'union')))}`,
    );
    expect(res.status).toBe(403);
  });
});
