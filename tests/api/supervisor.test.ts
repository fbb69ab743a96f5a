import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restartDelayMs, serverNodeOptions } from '../../src/server/supervisor.mjs';
import { freePort, makeTempFolder, type RunningServer, removeTempFolder, startServer } from '../bench/lib/server.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createClient, testDatabaseUrl } from '../support/test-app.js';

/**
 * `npm start` as operators run it: the supervisor (src/server/supervisor.mjs) and the built server under it, with the
 * start script's node options. The server process is killed with SIGKILL, as the kernel's out-of-memory killer or a
 * fatal error would; the supervisor starts it again and the next request is served, with the write made before.
 */
const onPostgres = Boolean(testDatabaseUrl());
let dataDir: string;
let server: RunningServer;

beforeAll(async () => {
  dataDir = makeTempFolder('om-supervisor-');
  server = await startServer({
    dataDir,
    port: await freePort(),
    adminEmail: ADMIN_EMAIL,
    adminPassword: ADMIN_PASSWORD,
    env: { LOGIN_MAX_ATTEMPTS: '1000', TILE_URL: '' },
  });
}, 240_000);

afterAll(async () => {
  await server?.stop();
  if (dataDir) removeTempFolder(dataDir);
}, 60_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The server process under the supervisor: the pid in the data folder's lock, which the server takes at start. */
const serverPid = () => Number(readFileSync(path.join(dataDir, 'organizing-map.lock'), 'utf8'));

describe.skipIf(onPostgres)('npm start under its supervisor (embedded database)', () => {
  it('backs off 1 s, 2 s, 4 s ... up to a minute between quick crashes', () => {
    expect([1, 2, 3, 4, 7, 20].map(restartDelayMs)).toEqual([1_000, 2_000, 4_000, 8_000, 60_000, 60_000]);
  });

  it("gives the server this process's node options, never a script given with -e", () => {
    expect(
      serverNodeOptions([
        '--max-old-space-size=256',
        '--input-type=module',
        '-e',
        'supervise()',
        '--eval=x',
        '-p',
        'y',
      ]),
    ).toEqual(['--max-old-space-size=256']);
    // Source maps only when the supervisor was started with them.
    expect(serverNodeOptions(['--enable-source-maps', '--max-old-space-size=256'])).toEqual([
      '--enable-source-maps',
      '--max-old-space-size=256',
    ]);
  });

  it('runs the server in a child process with the start script memory options', () => {
    const pid = serverPid();
    expect(pid).toBe(server.pid);
    expect(pid).not.toBe(server.supervisorPid);
    const options = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    expect(options).toContain('--max-old-space-size=256');
    expect(options).toContain('--max-semi-space-size=2');
    expect(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')).toContain('MALLOC_ARENA_MAX=1');
  });

  it('starts the server again after kill -9: the next request is served and the acknowledged write is there', async () => {
    const admin = createClient(server.baseUrl);
    expect((await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD)).status).toBe(200);
    const made = await admin.post('/api/sites', { name: 'Written before the crash', type: 'union' });
    expect(made.status).toBe(201);

    const killed = serverPid();
    process.kill(killed, 'SIGKILL');
    const until = Date.now() + 120_000;
    while (alive(killed) && Date.now() < until) await sleep(20);
    expect(alive(killed)).toBe(false);
    expect(alive(server.supervisorPid)).toBe(true);

    // The next request: answered once the new server process listens (the client retries while nothing listens).
    let answer: Response | null = null;
    while (!answer && Date.now() < until) {
      answer = await fetch(`${server.baseUrl}/api/health`).catch(() => null);
      if (!answer) await sleep(100);
    }
    expect(answer?.status).toBe(200);
    expect(serverPid()).not.toBe(killed);
    expect(server.output()).toMatch(
      /"msg":"The server \(pid \d+\) was killed by SIGKILL after \d+ s; starting it again in 1 s\."/,
    );

    // The session lives in the database: the same cookie reads the site written before the crash.
    const read = await admin.get(`/api/sites/${made.body.data.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.name).toBe('Written before the crash');
  }, 180_000);

  it('passes SIGTERM on: the server closes the database and the supervisor exits with it', async () => {
    const pid = serverPid();
    const exited = new Promise<number | null>((resolve) => {
      const check = setInterval(() => {
        if (!alive(server.supervisorPid)) {
          clearInterval(check);
          resolve(0);
        }
      }, 50);
    });
    process.kill(server.supervisorPid, 'SIGTERM');
    await Promise.race([exited, sleep(60_000)]);
    expect(alive(server.supervisorPid)).toBe(false);
    expect(alive(pid)).toBe(false);
    expect(server.output()).toContain('SIGTERM received: finishing requests and closing the database');
    // The lock is released only by a database closed as it should be.
    expect(() => readFileSync(path.join(dataDir, 'organizing-map.lock'))).toThrow();
  }, 90_000);
});
