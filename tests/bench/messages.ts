/**
 * Texts to a list (issue 36 point 4), black-box: the real server (`npm start`, embedded database) with a fake
 * Twilio-compatible provider on loopback. 5,000 contacts; one text to all of them: the POST that queues the 5,000
 * copies under 2 s; the copies sent at the configured MESSAGES_PER_MINUTE (no minute above it); the server stopped
 * (SIGTERM) halfway and started again on the same data: every person gets the text, none twice.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { request, signIn } from './lib/http.js';
import { freePort, loadAverage, makeTempFolder, procCpuMs, removeTempFolder, startServer } from './lib/server.js';
import { type BenchRow, row } from './types.js';

const PEOPLE = Number(process.env.BENCH_MESSAGE_PEOPLE ?? 5_000);
const PER_MINUTE = Number(process.env.BENCH_MESSAGES_PER_MINUTE ?? 3_000);
const ADMIN = { email: 'admin@example.com', password: 'bench-admin-password' };
const AREA = 'messages';

/** A POST as the signed-in browser makes it (the XSRF cookie echoed). */
function post(baseUrl: string, cookie: string, url: string, body: unknown) {
  const token = /XSRF-TOKEN=([^;]+)/.exec(cookie)?.[1] ?? '';
  return request(`${baseUrl}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'x-xsrf-token': decodeURIComponent(token) },
    body: JSON.stringify(body),
    timeoutMs: 60_000,
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function benchMessages(): Promise<BenchRow[]> {
  const arrivals: Array<{ to: string; at: number }> = [];
  const provider = http.createServer((incoming, response) => {
    let body = '';
    incoming.on('data', (chunk) => (body += chunk));
    incoming.on('end', () => {
      arrivals.push({ to: new URLSearchParams(body).get('To') ?? '', at: performance.now() });
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ sid: `SM${arrivals.length}` }));
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  const dataDir = makeTempFolder('om-bench-messages-');
  const options = {
    dataDir,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
    env: {
      SMS_API_URL: providerUrl,
      SMS_ACCOUNT_SID: 'ACbench',
      SMS_AUTH_TOKEN: 'bench-token',
      SMS_FROM: '+15550009999',
      MESSAGES_PER_MINUTE: String(PER_MINUTE),
      QUIET_HOURS: '',
    },
  };
  const rows: BenchRow[] = [];
  let server = await startServer({ ...options, port: await freePort() });
  try {
    let cookie = await signIn(server.baseUrl, ADMIN.email, ADMIN.password);
    // The people, eight at a time through the API.
    let made = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (made < PEOPLE) {
          const n = made++;
          const res = await post(server.baseUrl, cookie, '/api/contacts', {
            first_name: `Person${n}`,
            last_name: 'Benchtext',
            phone: `+1555${String(2_000_000 + n).padStart(7, '0')}`,
          });
          if (res.status !== 201)
            throw new Error(`POST /api/contacts answered ${res.status}: ${res.body.slice(0, 300)}`);
        }
      }),
    );

    const cpuBefore = procCpuMs(server.pid);
    const started = performance.now();
    const sent = await post(server.baseUrl, cookie, '/api/message-sends', {
      channel: 'sms',
      person_type: 'contact',
      query: { filter: { q: 'Benchtext' } },
      body: 'Hi {{first_name}}, the meeting is Thursday at 6.',
    });
    const queuedMs = performance.now() - started;
    // The server's CPU (the embedded database's thread included) for the POST: what the target means on a quiet machine.
    const queuedCpuMs = procCpuMs(server.pid) - cpuBefore;
    if (sent.status !== 201)
      throw new Error(`POST /api/message-sends answered ${sent.status}: ${sent.body.slice(0, 300)}`);
    const queued = (JSON.parse(sent.body) as { data: { counts: { queued?: number } } }).data.counts.queued ?? 0;
    rows.push(
      row(AREA, `queue a text to ${PEOPLE.toLocaleString('en-US')} people (load ${loadAverage()})`, queuedMs, 'ms', {
        below: 2_000,
      }),
      row(AREA, 'server CPU to queue them (embedded database included)', queuedCpuMs, 'ms'),
      row(AREA, 'copies queued', queued, 'count', { atLeast: PEOPLE }),
    );

    // Halfway, a stop and a start on the same data.
    while (arrivals.length < PEOPLE / 2) {
      if (performance.now() - started > 600_000) throw new Error(`Only ${arrivals.length} texts after 10 minutes`);
      await sleep(200);
    }
    await server.stop('SIGTERM');
    const atStop = arrivals.length;
    server = await startServer({ ...options, port: await freePort() });
    cookie = await signIn(server.baseUrl, ADMIN.email, ADMIN.password);
    const deadline = performance.now() + Math.max(120_000, (PEOPLE / PER_MINUTE) * 60_000 * 2);
    while (new Set(arrivals.map((arrival) => arrival.to)).size < PEOPLE && performance.now() < deadline)
      await sleep(500);
    const unique = new Set(arrivals.map((arrival) => arrival.to)).size;
    const times = arrivals.map((arrival) => arrival.at).sort((a, b) => a - b);
    let busiestMinute = 0;
    for (let i = 0, j = 0; j < times.length; j++) {
      while (times[j]! - times[i]! >= 60_000) i++;
      busiestMinute = Math.max(busiestMinute, j - i + 1);
    }
    console.error(
      `[bench] messages: ${atStop} sent before the restart, ${unique} people reached of ${PEOPLE}, ${arrivals.length - unique} twice (load ${loadAverage()})`,
    );
    rows.push(
      row(AREA, 'people reached after a restart halfway', unique, 'count', { atLeast: PEOPLE }),
      row(AREA, 'texts sent twice', arrivals.length - unique, 'count', { atMost: 0 }),
      row(AREA, `busiest minute (MESSAGES_PER_MINUTE=${PER_MINUTE})`, busiestMinute, 'texts', { atMost: PER_MINUTE }),
      row(
        AREA,
        'send rate over the whole run, restart included',
        times.length > 1 ? ((times.length - 1) / (times.at(-1)! - times[0]!)) * 60_000 : null,
        'texts/min',
      ),
    );
  } finally {
    await server.stop();
    provider.close();
    removeTempFolder(dataDir);
  }
  return rows;
}
