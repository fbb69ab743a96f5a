/**
 * `npm run bench -- assistant` (issue 33): count and list questions to the built-in assistant over 100,000 sites
 * (BENCH_ASSISTANT_SITES) and the demo data, on the embedded database, black-box: the real server (`npm start`) in
 * another process, a leader asking over HTTP and hearing the answer on their realtime channel, as the browser does.
 * The sites come from tests/support/many-sites.ts, in a data folder kept between runs (the first run fills it).
 *
 * Every question is a different one (another type, region, city, amount or period), each asked once, in a
 * conversation of its own. The figure is the time from sending the question to the event that says the answer is
 * saved, seen from this process; the understanding step alone is the server's own measure (its "assistant answered"
 * log line, `understand_ms`). Targets: count and list answers p95 < 300 ms, understanding p95 < 20 ms. Each answer
 * must be a count or list (it keeps its list); a refusal fails the run, since a refusal is no measure of a count.
 * The server's CPU per question (the embedded database runs inside it) and the load average are printed beside.
 */
import { performance } from 'node:perf_hooks';
import type Pusher from 'pusher-js';
import { startServerWithSites } from '../support/many-sites.js';
import { hubBrowser } from '../support/pusher-events.js';
import { request, signIn, xsrfOf } from './lib/http.js';
import { percentile } from './lib/percentile.js';
import { loadAverage, procCpuMs } from './lib/server.js';
import { subscribed } from './lib/subscribed.js';
import { ADMIN_EMAIL, PASSWORD } from './load.js';
import { type BenchRow, row } from './types.js';

const AREA = 'assistant';
const SITES = Number(process.env.BENCH_ASSISTANT_SITES ?? 100_000);
const ASKER = 'leader@example.com';
/** The hub's key when none is set (src/server/config/config.ts). */
const HUB_KEY = 'organizing-map-key';

/** Not counted: the first answers of a server just started (code compiled, indexes read into memory). */
const WARM_UP = ['How many contractors are there?', 'list open grievances'];

/** Count and list questions, each asked once: the generated sites' types, cities, amounts and dates, the demo regions. */
const QUESTIONS = [
  'How many sites are there?',
  'How many union sites are there?',
  'how many non-union sites in Los Angeles County',
  'list PLA sites',
  'how many sites in City 12',
  'how many sites worth over $5 million',
  'new sites this month',
  'how many sites were added in the last 30 days',
  'union sites under $500k',
  'how many public works sites in Kern County',
  'show me pending sites',
  'how many development sites were added this week',
  'sites without a general contractor',
  'how many sites have a bid date',
  'list union sites in City 7',
  'the five biggest sites',
  'top 3 union sites by value',
  'sites by type',
  'how many non-union sites in City 250',
  'how many PLA sites worth over $2 million',
  'list public works sites in Fresno County',
  'how many pending sites were added since March 1',
];

interface Heard {
  done: Promise<number>;
}

/** The person's own realtime channel, as their browser holds it: resolves each question's "done" with when it came. */
async function listen(baseUrl: string, port: number, cookie: string, userId: number) {
  const xsrf = xsrfOf(cookie);
  const pusher: Pusher = hubBrowser(HUB_KEY, port, async (body) => {
    const answer = await request(`${baseUrl}/broadcasting/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, 'x-xsrf-token': xsrf },
      body: JSON.stringify(body),
    });
    return { status: answer.status, body: answer.status === 200 ? JSON.parse(answer.body) : answer.body };
  });
  const waiting = new Map<number, (at: number) => void>();
  const early = new Map<number, number>();
  const channel = pusher.subscribe(`private-App.Models.User.${userId}`);
  channel.bind('App.Events.AssistantMessage', (data: { reply_to: number; status: string }) => {
    if (data.status === 'streaming') return;
    const at = performance.now();
    const resolve = waiting.get(data.reply_to);
    if (resolve) resolve(at);
    else early.set(data.reply_to, at);
  });
  await subscribed(channel);
  return {
    answered(questionId: number): Heard {
      const at = early.get(questionId);
      return {
        done:
          at !== undefined
            ? Promise.resolve(at)
            : new Promise<number>((resolve, reject) => {
                const timer = setTimeout(
                  () => reject(new Error(`no answer to question ${questionId} in 60 s`)),
                  60_000,
                );
                waiting.set(questionId, (when) => {
                  clearTimeout(timer);
                  resolve(when);
                });
              }),
      };
    },
    close: () => pusher.disconnect(),
  };
}

/** The server's "assistant answered" log lines (pino JSON) by question id. */
interface AnsweredLine {
  understand_ms?: number;
  understand_cpu_ms?: number;
  answer_ms: number;
  answer_cpu_ms: number;
}

function answeredLines(output: string): Map<number, AnsweredLine> {
  const lines = new Map<number, AnsweredLine>();
  for (const line of output.split('\n')) {
    if (!line.includes('"assistant answered"')) continue;
    try {
      const entry = JSON.parse(line);
      lines.set(entry.question_id, entry);
    } catch {
      /* a line cut by the kept output's start */
    }
  }
  return lines;
}

export async function benchAssistant(): Promise<BenchRow[]> {
  const running = await startServerWithSites(
    SITES,
    { email: ADMIN_EMAIL, password: PASSWORD },
    { seedDemo: true, keep: true, env: { LOG_LEVEL: 'info', ASSISTANT_MESSAGES_PER_MINUTE: '1000' } },
  );
  const { server } = running;
  let hub: Awaited<ReturnType<typeof listen>> | null = null;
  try {
    const cookie = await signIn(server.baseUrl, ASKER, PASSWORD);
    const xsrf = xsrfOf(cookie);
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await request(`${server.baseUrl}${url}`, {
        method,
        headers: { cookie, 'x-xsrf-token': xsrf, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: 60_000,
      });
      if (res.status >= 400) throw new Error(`${method} ${url} answered ${res.status}: ${res.body.slice(0, 300)}`);
      return JSON.parse(res.body);
    };
    const me = (await call('GET', '/api/auth/check')).data;
    hub = await listen(server.baseUrl, Number(new URL(server.baseUrl).port), cookie, me.id);

    const ask = async (content: string) => {
      const thread = (await call('POST', '/api/assistant/threads', { title: 'bench' })).data.id;
      const sent = performance.now();
      const question = (await call('POST', '/api/assistant/messages', { thread_id: thread, content })).data;
      const ms = (await hub!.answered(question.id).done) - sent;
      const filter = encodeURIComponent(JSON.stringify({ reply_to: question.id, role: 'assistant' }));
      const answer = (await call('GET', `/api/assistant/messages?filter=${filter}`)).data[0];
      return { id: question.id as number, ms, answer };
    };

    for (const question of WARM_UP) await ask(question);
    const times: number[] = [];
    const ids: number[] = [];
    const refused: string[] = [];
    const cpuBefore = procCpuMs(server.pid);
    for (const question of QUESTIONS) {
      const { id, ms, answer } = await ask(question);
      times.push(ms);
      ids.push(id);
      const first = String(answer?.content ?? '').split('\n')[0];
      console.error(`[bench] assistant: ${ms.toFixed(0)} ms "${question}": ${first.slice(0, 140)}`);
      if (answer?.outcome !== 'answered' || !answer.list) refused.push(`"${question}": ${first.slice(0, 200)}`);
    }
    const cpuPer = (procCpuMs(server.pid) - cpuBefore) / QUESTIONS.length;
    const load = loadAverage();
    // The server writes its log line before the answer's event; give the pipe a moment.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const logged = answeredLines(server.output());
    const figures = (key: keyof AnsweredLine) =>
      ids.map((id) => logged.get(id)?.[key]).filter((v): v is number => v !== undefined);
    const understood = figures('understand_ms');
    for (const [i, id] of ids.entries()) {
      const line = logged.get(id);
      if (line)
        console.error(
          `[bench] assistant: understanding ${line.understand_ms} ms (CPU ${line.understand_cpu_ms} ms), answer CPU ${line.answer_cpu_ms} ms: "${QUESTIONS[i]}"`,
        );
    }
    if (understood.length < ids.length)
      console.error(`[bench] assistant: ${ids.length - understood.length} answers had no "assistant answered" line`);
    for (const line of refused) console.error(`[bench] assistant: NOT A COUNT OR LIST ANSWER ${line}`);
    const sites = SITES.toLocaleString('en-US');
    const round = (n: number) => Math.round(n * 10) / 10;
    console.error(
      `[bench] assistant: ${QUESTIONS.length} questions on ${sites} more sites: p50 ${round(percentile(times, 0.5))} ms, p95 ${round(percentile(times, 0.95))} ms; understanding p50 ${round(percentile(understood, 0.5))} ms, p95 ${round(percentile(understood, 0.95))} ms; server CPU ${round(cpuPer)} ms per question (load ${load})`,
    );
    return [
      row(
        AREA,
        `count and list answers p95 (${QUESTIONS.length}, ${sites} more sites, load ${load})`,
        round(percentile(times, 0.95)),
        'ms',
        {
          below: 300,
        },
      ),
      row(AREA, 'count and list answers p50', round(percentile(times, 0.5)), 'ms'),
      row(
        AREA,
        'answer in the server (question to saved answer) p95',
        round(percentile(figures('answer_ms'), 0.95)),
        'ms',
      ),
      row(AREA, 'answer in the server, CPU p95', round(percentile(figures('answer_cpu_ms'), 0.95)), 'ms'),
      row(AREA, 'understanding step alone p95 (server side)', round(percentile(understood, 0.95)), 'ms', { below: 20 }),
      row(AREA, 'understanding step alone p50', round(percentile(understood, 0.5)), 'ms'),
      row(AREA, 'understanding step alone, CPU p95', round(percentile(figures('understand_cpu_ms'), 0.95)), 'ms'),
      row(AREA, 'server CPU per question (database included)', round(cpuPer), 'ms'),
      row(AREA, `questions not answered as a count or list (of ${QUESTIONS.length})`, refused.length, 'count', {
        atMost: 0,
      }),
    ];
  } finally {
    hub?.close();
    await running.close();
  }
}
