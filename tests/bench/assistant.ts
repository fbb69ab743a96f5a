/**
 * `npm run bench -- assistant`: the questions of tests/assistant/questions.json over the demo organization, asked
 * through the API of a server built in this process (embedded database, SEED_DEMO=1). Each expected answer is
 * worked out through the API when the benchmark runs, as the person asking. Prints, for the built-in assistant (and
 * for a model when ASSISTANT_BASE_URL is set): answered right, refused honestly, answered wrong; and the time to the
 * first streamed words and to the whole answer (from sending the question to the event that says it is saved).
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config/config.js';
import { openDatabase } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { ensureAppKey, seedDatabase } from '../../src/server/seed/seed.js';
import { cookieHeader, request, setCookies } from './lib/http.js';
import { makeTempFolder, ROOT, removeTempFolder } from './lib/server.js';
import { type BenchRow, row } from './types.js';

const AREA = 'assistant';
const ADMIN_EMAIL = 'admin@example.com';
const PASSWORD = 'bench-admin-password';
const DEFAULT_ASKER = 'leader@example.com';

interface Question {
  q: string;
  as?: string;
  scope?: 'in' | 'out';
  expect?: Record<string, any>;
}

/** A signed-in person talking to the server over HTTP. */
class Person {
  private constructor(
    private readonly base: string,
    private readonly jar: Map<string, string>,
    readonly id: number,
  ) {}

  static async signIn(base: string, email: string): Promise<Person> {
    const jar = setCookies(await request(`${base}/sanctum/csrf-cookie`));
    const person = new Person(base, jar, 0);
    const login = await person.call('POST', '/api/auth/login', { email, password: PASSWORD, remember: false });
    return new Person(base, jar, login.data.id);
  }

  async call(method: string, url: string, body?: unknown): Promise<any> {
    const headers: Record<string, string> = { cookie: cookieHeader(this.jar), 'x-requested-with': 'XMLHttpRequest' };
    if (method !== 'GET') headers['x-xsrf-token'] = decodeURIComponent(this.jar.get('XSRF-TOKEN') ?? '');
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await request(`${this.base}${url}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      timeoutMs: 60_000,
    });
    for (const [name, value] of setCookies(res)) this.jar.set(name, value);
    const parsed = res.body ? JSON.parse(res.body) : null;
    if (res.status >= 400) throw new Error(`${method} ${url} answered ${res.status}: ${res.body.slice(0, 300)}`);
    return parsed;
  }

  list = (resource: string, filter: Record<string, unknown> = {}, extra = '') =>
    this.call('GET', `/api/${resource}?per_page=1&filter=${encodeURIComponent(JSON.stringify(filter))}${extra}`);
}

// ---- dates, worked out here on their own (not with the assistant's code) -----------------------------------------
const iso = (d: Date) => d.toISOString().slice(0, 10);
const utc = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d));
const next = (day: string) => iso(new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000));
function dates(now: Date): Record<string, string> {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const today = utc(y, m, now.getUTCDate());
  const monday = new Date(today.getTime() - ((today.getUTCDay() + 6) % 7) * 86_400_000);
  const ranges: Record<string, [Date, Date]> = {
    thisWeek: [monday, new Date(monday.getTime() + 6 * 86_400_000)],
    thisMonth: [utc(y, m, 1), utc(y, m + 1, 0)],
    nextMonth: [utc(y, m + 1, 1), utc(y, m + 2, 0)],
    lastMonth: [utc(y, m - 1, 1), utc(y, m, 0)],
    thisYear: [utc(y, 0, 1), utc(y, 11, 31)],
  };
  const out: Record<string, string> = { now: now.toISOString() };
  for (const [name, [from, to]] of Object.entries(ranges))
    Object.assign(out, { [`${name}.from`]: iso(from), [`${name}.to`]: iso(to), [`${name}.after`]: next(iso(to)) });
  return out;
}

/** The records the questions name, picked from the demo data through the API. */
async function pick(person: Person) {
  const sites: any[] = (await person.call('GET', '/api/sites?per_page=-1&sort=name&order=asc')).data;
  const byName = new Map<string, number>();
  for (const s of sites) byName.set(s.name.toLowerCase(), (byName.get(s.name.toLowerCase()) ?? 0) + 1);
  const site = sites.find(
    (s) =>
      byName.get(s.name.toLowerCase()) === 1 &&
      s.general_contractor_id &&
      s.bid_date &&
      s.site_status_id &&
      /^[A-Za-z][A-Za-z ]+$/.test(s.name),
  );
  const cities = new Map<string, number>();
  for (const s of sites) if (s.city) cities.set(s.city, (cities.get(s.city) ?? 0) + 1);
  const city = [...cities.entries()].sort((a, b) => b[1] - a[1])[0][0];
  const regions: any[] = (await person.call('GET', '/api/regions?per_page=-1&sort=name&order=asc')).data.filter(
    (r: any) => r.geometry_type === 'county',
  );
  const counties: any[] = [];
  for (const region of regions)
    if ((await person.list('sites', { type: 'union', region_ids: [region.id] })).meta.total > 0) counties.push(region);
  const trades: any[] = (await person.call('GET', '/api/trades?per_page=-1&sort=name&order=asc')).data;
  let trade: any;
  for (const candidate of trades)
    if (
      (await person.list('sites', { trade_ids: [candidate.id] })).meta.total > 0 &&
      /^[A-Za-z]+$/.test(candidate.name)
    )
      trade ??= candidate;
  const statuses: any[] = (await person.call('GET', '/api/site-statuses?per_page=-1')).data;
  let status: any;
  for (const candidate of statuses)
    if (!status && (await person.list('sites', { site_status_id: candidate.id })).meta.total > 0) status = candidate;
  if (!site || counties.length < 2 || !trade || !status)
    throw new Error(
      'The demo data lacks what the questions need (a uniquely named site with a general contractor, two counties with union sites, a trade, a status).',
    );
  return {
    words: {
      site: site.name,
      city,
      county: counties[0].name,
      county2: counties[1].name,
      trade: trade.name,
      status: status.name,
    },
    values: {
      site: site.id,
      city,
      county: counties[0].id,
      county2: counties[1].id,
      trade: trade.id,
      status: status.id,
    },
  };
}

const fill = (value: unknown, values: Record<string, unknown>): any => {
  if (typeof value === 'string' && value.startsWith('$')) {
    if (!(value.slice(1) in values)) throw new Error(`No value for ${value}`);
    return values[value.slice(1)];
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, values));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, values)]));
  return value;
};

const fmt = (n: number) => n.toLocaleString('en-US');
const has = (text: string, figure: string) =>
  new RegExp(`(^|[^\\d.,])${figure.replace(/[.$]/g, '\\$&')}([^\\d]|$)`).test(text);
const REFUSAL = /\b(can't|cannot|couldn't|not sure|don't|do not|unable|won't|no (record|tool|data))\b/i;

type Verdict = 'right' | 'refused' | 'wrong';

/** Whether an answer is right, an honest refusal, or wrong, against what the API says. */
async function judge(
  person: Person,
  question: Question,
  answer: any,
  values: Record<string, unknown>,
): Promise<{ verdict: Verdict; why: string }> {
  const text: string = answer.content ?? '';
  const refused =
    answer.outcome === 'refused' || (answer.model !== 'built-in' && REFUSAL.test(text) && !/\*\*\d/.test(text));
  if (question.scope === 'out' || !question.expect) {
    if (refused) return { verdict: 'refused', why: 'refused' };
    return { verdict: 'wrong', why: `answered a question outside its scope: ${text.slice(0, 120)}` };
  }
  if (refused) return { verdict: 'refused', why: text.slice(0, 160) };
  const [kind, raw] = Object.entries(question.expect)[0];
  const spec = fill(raw, values);
  const ok = (condition: boolean, why: string): { verdict: Verdict; why: string } => ({
    verdict: condition ? 'right' : 'wrong',
    why,
  });
  switch (kind) {
    case 'count': {
      const total = (await person.list(spec.resource, spec.filter)).meta.total;
      return ok(
        total === 0 ? /\b(no|none|zero|0)\b/i.test(text) && !/\*\*[1-9]/.test(text) : has(text, fmt(total)),
        `expected ${total}: ${text.slice(0, 120)}`,
      );
    }
    case 'field': {
      const record = (await person.call('GET', `/api/${spec.resource}/${spec.id}`)).data;
      const value = record[spec.field];
      if (spec.target) {
        const ids = Array.isArray(value) ? value : [value];
        const names = [];
        for (const id of ids.filter(Boolean)) {
          const target = (await person.call('GET', `/api/${spec.target}/${id}`)).data;
          names.push(target.name ?? `${target.first_name} ${target.last_name}`.trim());
        }
        return ok(
          names.length > 0 && names.every((n) => text.includes(n)),
          `expected ${names.join(', ')}: ${text.slice(0, 160)}`,
        );
      }
      const shown = typeof value === 'string' ? value.slice(0, 10) : String(value);
      return ok(text.includes(shown), `expected ${shown}: ${text.slice(0, 160)}`);
    }
    case 'describe':
      return ok(
        text.includes(`(/${spec.resource}/${spec.id}/show)`),
        `expected a link to ${spec.resource} ${spec.id}: ${text.slice(0, 120)}`,
      );
    case 'market_share': {
      const query = new URLSearchParams({
        group_by: 'none',
        ...Object.fromEntries(Object.entries(spec).map(([k, v]) => [k, String(v)])),
      });
      const share = (await person.call('GET', `/api/reports/market-share?${query}`)).totals.share.sites;
      return ok(
        share === null ? /no market share/i.test(text) : has(text, `${share}%`),
        `expected ${share}%: ${text.slice(0, 160)}`,
      );
    }
    case 'groups': {
      const schema = (await person.call('GET', '/api/schemas?per_page=-1')).data.find(
        (s: any) => s.resource === spec.resource,
      );
      const field = schema.fields.find((f: any) => f.slug === spec.field);
      const options: Array<{ label: string; value: unknown }> = spec.target
        ? (await person.call('GET', `/api/${spec.target}?per_page=-1`)).data.map((r: any) => ({
            label: r.name,
            value: r.id,
          }))
        : (field.options.choices ?? []).map((c: any) => ({ label: c.label, value: c.value }));
      const lines = new Map(
        [...text.matchAll(/^- \[(.+?)\]\(.*?\): \*\*([\d,]+)\*\*/gm)].map((m) => [
          m[1].replace(/\\(.)/g, '$1'),
          Number(m[2].replace(/,/g, '')),
        ]),
      );
      for (const option of options) {
        const total = (await person.list(spec.resource, { [spec.field]: option.value })).meta.total;
        if ((lines.get(option.label) ?? 0) !== total)
          return ok(false, `expected ${option.label} ${total}, got ${lines.get(option.label)}`);
      }
      return ok(lines.size > 0, 'groups');
    }
    case 'near': {
      const inCity: any[] = (
        await person.call(
          'GET',
          `/api/sites?per_page=1000&filter=${encodeURIComponent(JSON.stringify({ city: spec.city }))}`,
        )
      ).data.filter((s: any) => s.latitude != null);
      const lat = inCity.reduce((s, r) => s + Number(r.latitude), 0) / inCity.length;
      const lng = inCity.reduce((s, r) => s + Number(r.longitude), 0) / inCity.length;
      const all: any[] = (await person.call('GET', '/api/sites?per_page=-1')).data.filter(
        (s: any) => s.latitude != null,
      );
      const rad = Math.PI / 180;
      const km = (s: any) =>
        2 *
        6371 *
        Math.asin(
          Math.sqrt(
            Math.sin(((s.latitude - lat) * rad) / 2) ** 2 +
              Math.cos(lat * rad) * Math.cos(s.latitude * rad) * Math.sin(((s.longitude - lng) * rad) / 2) ** 2,
          ),
        );
      const total = all.filter((s) => km(s) <= spec.radius_km).length;
      return ok(has(text, fmt(total)), `expected ${total}: ${text.slice(0, 120)}`);
    }
    case 'proposal': {
      const p = answer.proposal;
      if (!p || p.kind !== spec.kind) return ok(false, `expected a ${spec.kind} proposal: ${text.slice(0, 120)}`);
      const target =
        p.write.action === 'update' ? p.write.id : (p.write.values.taskable_id ?? p.write.values.notable_id);
      const due = spec.due_weekday === undefined || new Date(p.write.values.due_at).getUTCDay() === spec.due_weekday;
      return ok(target === spec.record && due, `proposal on ${target}, due ${p.write.values.due_at}`);
    }
    default:
      return ok(false, `unknown expectation ${kind}`);
  }
}

const percentile = (values: number[], p: number) => {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

export async function benchAssistant(): Promise<BenchRow[]> {
  const { questions } = JSON.parse(readFileSync(path.join(ROOT, 'tests/assistant/questions.json'), 'utf8')) as {
    questions: Question[];
  };
  const dataDir = makeTempFolder('om-bench-assistant-');
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    ADMIN_EMAIL,
    ADMIN_PASSWORD: PASSWORD,
    SEED_DEMO: '1',
    LOG_LEVEL: 'silent',
    ASSISTANT_MESSAGES_PER_MINUTE: '1000',
  });
  const database = await openDatabase(config);
  const rows: BenchRow[] = [];
  try {
    await migrate(database.db);
    config.appKey ??= await ensureAppKey(database.db);
    await seedDatabase(database.db, config);
    const { app, ctx } = await buildApp({ config, database, logger: false });
    // When each piece of an answer went out, by question.
    const heard = new Map<number, { first?: number; done?: number }>();
    const publish = ctx.realtime.publish.bind(ctx.realtime);
    ctx.realtime.publish = async (channels, event, data: any, options) => {
      if (event === 'App.Events.AssistantMessage') {
        const entry = heard.get(data.reply_to) ?? {};
        if (data.status === 'streaming') entry.first ??= performance.now();
        else entry.done = performance.now();
        heard.set(data.reply_to, entry);
      }
      return publish(channels, event, data, options);
    };
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const people = new Map<string, Person>();
    const as = async (email: string) => {
      if (!people.has(email)) people.set(email, await Person.signIn(base, email));
      return people.get(email)!;
    };
    const leader = await as(DEFAULT_ASKER);
    const picked = await pick(leader);
    console.error(`[bench] assistant: asking about ${JSON.stringify(picked.words)}`);

    const run = async (label: string) => {
      const counts = { in: { right: 0, refused: 0, wrong: 0 }, out: { right: 0, refused: 0, wrong: 0 } };
      const first: number[] = [];
      const whole: number[] = [];
      const threads = new Map<string, number>();
      // Two questions first, not counted: caches fill as after any start.
      for (const warm of ['How many sites are there?', 'What can you do?']) {
        const person = await as(DEFAULT_ASKER);
        const thread = (await person.call('POST', '/api/assistant/threads', { title: 'warm-up' })).data.id;
        await person.call('POST', '/api/assistant/messages', { thread_id: thread, content: warm });
        await app.assistant.idle();
      }
      for (const question of questions) {
        const email = question.as ?? DEFAULT_ASKER;
        const person = await as(email);
        if (!threads.has(email))
          threads.set(
            email,
            (await person.call('POST', '/api/assistant/threads', { title: `bench ${label}` })).data.id,
          );
        const values = { ...picked.values, ...dates(new Date()), me: person.id };
        const text = question.q.replace(/\{(\w+)\}/g, (_m, key) =>
          String((picked.words as Record<string, string>)[key]),
        );
        const sent = performance.now();
        const asked = (
          await person.call('POST', '/api/assistant/messages', { thread_id: threads.get(email), content: text })
        ).data;
        await app.assistant.idle();
        const times = heard.get(asked.id) ?? {};
        if (times.first !== undefined) first.push(times.first - sent);
        if (times.done !== undefined) whole.push(times.done - sent);
        const answer = (
          await person.call(
            'GET',
            `/api/assistant/messages?filter=${encodeURIComponent(JSON.stringify({ reply_to: asked.id, role: 'assistant' }))}`,
          )
        ).data[0];
        const scope = question.scope ?? 'in';
        const { verdict, why } = answer
          ? await judge(person, question, answer, values)
          : { verdict: 'wrong' as Verdict, why: 'no answer saved' };
        counts[scope][verdict]++;
        if (verdict !== 'right' && !(scope === 'out' && verdict === 'refused'))
          console.error(`[bench] ${label} ${verdict.toUpperCase()} (${scope}) "${text}": ${why}`);
      }
      const inScope = questions.filter((q) => (q.scope ?? 'in') === 'in').length;
      const outScope = questions.length - inScope;
      const builtin = label === 'built-in';
      rows.push(
        row(
          AREA,
          `${label}: answered right (in scope, of ${inScope})`,
          counts.in.right,
          'count',
          builtin ? { atLeast: Math.ceil(inScope * 0.9) } : undefined,
        ),
        row(AREA, `${label}: refused honestly (in scope)`, counts.in.refused, 'count'),
        row(AREA, `${label}: answered wrong (in scope)`, counts.in.wrong, 'count', builtin ? { atMost: 0 } : undefined),
        row(AREA, `${label}: refused honestly (out of scope, of ${outScope})`, counts.out.refused, 'count'),
        row(
          AREA,
          `${label}: answered wrong (out of scope)`,
          counts.out.wrong,
          'count',
          builtin ? { atMost: 0 } : undefined,
        ),
        row(AREA, `${label}: first streamed words p50`, percentile(first, 50), 'ms'),
        row(
          AREA,
          `${label}: first streamed words p95`,
          percentile(first, 95),
          'ms',
          builtin ? { below: 300 } : undefined,
        ),
        row(AREA, `${label}: whole answer p50`, percentile(whole, 50), 'ms'),
        row(AREA, `${label}: whole answer p95`, percentile(whole, 95), 'ms', builtin ? { below: 1000 } : undefined),
      );
    };

    await run('built-in');
    if (process.env.ASSISTANT_BASE_URL) {
      Object.assign(config.assistant, {
        baseUrl: process.env.ASSISTANT_BASE_URL,
        model: process.env.ASSISTANT_MODEL,
        apiKey: process.env.ASSISTANT_API_KEY,
      });
      if (!config.assistant.model) throw new Error('Set ASSISTANT_MODEL with ASSISTANT_BASE_URL.');
      await run(`model ${config.assistant.model}`);
    }
    await app.close();
  } finally {
    await database.close().catch(() => {});
    removeTempFolder(dataDir);
  }
  return rows;
}
