/**
 * `npm run bench -- assistant`: the questions of tests/assistant/questions.json over the demo organization with
 * BENCH_ASSISTANT_SITES more sites (100,000 unless told; 0 for the demo alone), asked through the API of a server
 * built in this process (embedded database, SEED_DEMO=1). Each expected answer is
 * worked out through the API when the benchmark runs, as the person asking. Prints, for the built-in assistant (and
 * for a model when ASSISTANT_BASE_URL is set): answered right, refused honestly, answered wrong; and the time to the
 * first streamed words and to the whole answer (from sending the question to the event that says it is saved), the
 * whole answer to the count and list questions alone, and the understanding step alone (understand.ts, in this
 * process, as the same person).
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../../src/server/app.js';
import { understand } from '../../src/server/assistant/builtin/understand.js';
import { createScope } from '../../src/server/assistant/tools/scope.js';
import { loadAuthUser } from '../../src/server/auth/load-user.js';
import { loadConfig } from '../../src/server/config/config.js';
import { openDatabase } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { ensureAppKey, seedDatabase } from '../../src/server/seed/seed.js';
import { addTwin, dates, judge, loadQuestions, pick, type Verdict, wordsOf } from '../support/assistant-questions.js';
import { insertSites } from '../support/many-sites.js';
import { cookieHeader, request, setCookies } from './lib/http.js';
import { makeTempFolder, ROOT, removeTempFolder } from './lib/server.js';
import { type BenchRow, row } from './types.js';

const AREA = 'assistant';
const ADMIN_EMAIL = 'admin@example.com';
const PASSWORD = 'bench-admin-password';
const DEFAULT_ASKER = 'leader@example.com';
const SITES = Number(process.env.BENCH_ASSISTANT_SITES ?? 100_000);

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

  get = (url: string) => this.call('GET', url);
}

const percentile = (values: number[], p: number) => {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

export async function benchAssistant(): Promise<BenchRow[]> {
  const questions = loadQuestions(ROOT);
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
    if (SITES) await insertSites(database.db, SITES);
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
    await addTwin(leader.get, (url, body) => leader.call('POST', url, body));
    const picked = await pick(leader.get);
    console.error(`[bench] assistant: asking about ${JSON.stringify(picked.words)}`);

    const run = async (label: string) => {
      const counts = { in: { right: 0, refused: 0, wrong: 0 }, out: { right: 0, refused: 0, wrong: 0 } };
      const first: number[] = [];
      const whole: number[] = [];
      const listed: number[] = [];
      const understood: number[] = [];
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
        // A question that does not follow the one before starts a conversation of its own, as in the accuracy suite.
        if (!question.follows || !threads.has(email))
          threads.set(
            email,
            (await person.call('POST', '/api/assistant/threads', { title: `bench ${label}` })).data.id,
          );
        const values = { ...picked.values, ...dates(new Date()), me: person.id };
        const text = wordsOf(question, picked.words);
        const sent = performance.now();
        const asked = (
          await person.call('POST', '/api/assistant/messages', { thread_id: threads.get(email), content: text })
        ).data;
        await app.assistant.idle();
        const times = heard.get(asked.id) ?? {};
        if (times.first !== undefined) first.push(times.first - sent);
        if (times.done !== undefined) whole.push(times.done - sent);
        if (times.done !== undefined && question.expect && 'count' in question.expect) listed.push(times.done - sent);
        if (label === 'built-in' && !question.follows) {
          const scope = await createScope(ctx, (await loadAuthUser(ctx.db, person.id))!);
          const started = performance.now();
          await understand(scope, text);
          understood.push(performance.now() - started);
        }
        const answer = (
          await person.call(
            'GET',
            `/api/assistant/messages?filter=${encodeURIComponent(JSON.stringify({ reply_to: asked.id, role: 'assistant' }))}`,
          )
        ).data[0];
        const scope = question.scope ?? 'in';
        const { verdict, why } = answer
          ? await judge(person.get, question, answer, values)
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
        row(
          AREA,
          `${label}: count and list answers p95 (${listed.length}, ${SITES.toLocaleString('en-US')} more sites)`,
          percentile(listed, 95),
          'ms',
          builtin ? { below: 300 } : undefined,
        ),
      );
      if (builtin)
        rows.push(
          row(AREA, 'understanding step alone p50', percentile(understood, 50), 'ms'),
          row(AREA, 'understanding step alone p95', percentile(understood, 95), 'ms', { below: 20 }),
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
