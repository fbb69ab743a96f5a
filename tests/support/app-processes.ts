import { type ChildProcess, spawn } from 'node:child_process';
import { makeTempFolder, removeTempFolder, startServer } from '../bench/lib/server.js';
import { freePort } from './postgres-server.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './test-app.js';

/** A server process on a port of its own, for tests with several processes. */
export interface AppProcess {
  url: string;
  pid: number;
  /** What it printed, for a failure's message. */
  output(): string;
  /** SIGTERM and wait, or `SIGKILL` to die on the spot as a crashed process would. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Whether the process still runs. */
  alive(): boolean;
}

function launch(script: string, env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: process.cwd(),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const keep = (chunk: Buffer) => {
    text = (text + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return { child, output: () => text };
}

async function waitUntilAnswering(url: string, child: ChildProcess, output: () => string, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${url} exited with ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${output()}`);
}

function stopper(child: ChildProcess) {
  return async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
}

/**
 * A server process as operators run it (`npm start`'s built server, through the benches' `startServer`) with its
 * own data folder; `env` adds DATABASE_URL, S3_*, PUSHER_* and the like.
 */
export async function startAppProcess(env: Record<string, string>, timeoutMs = 180_000): Promise<AppProcess> {
  const dataDir = makeTempFolder('om-process-');
  const server = await startServer({
    dataDir,
    port: await freePort(),
    adminEmail: ADMIN_EMAIL,
    adminPassword: ADMIN_PASSWORD,
    databaseUrl: env.DATABASE_URL,
    readCache: env.READ_CACHE === '1',
    timeoutMs,
    env: { LOGIN_MAX_ATTEMPTS: '1000', TILE_URL: '', ...env },
  });
  return {
    url: server.baseUrl,
    pid: server.pid,
    output: server.output,
    alive: server.alive,
    async stop(signal) {
      await server.stop(signal);
      removeTempFolder(dataDir);
    },
  };
}

/** `npm run hub`: the standalone Pusher-protocol hub as its own process; on `port` to start one again where it was. */
export async function startHubProcess(settings: { appId: string; key: string; secret: string }, port?: number) {
  port ??= await freePort();
  const { child, output } = launch('src/server/realtime/hub-main.ts', {
    PUSHER_APP_ID: settings.appId,
    PUSHER_APP_KEY: settings.key,
    PUSHER_APP_SECRET: settings.secret,
    HUB_PORT: String(port),
    HUB_HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  });
  const stop = stopper(child);
  await waitUntilAnswering(`http://127.0.0.1:${port}/health`, child, output, 60_000).catch(async (error) => {
    await stop('SIGKILL');
    throw error;
  });
  return {
    port,
    /** The settings that make the app processes publish to this hub (and tell browsers to connect to it). */
    appEnv: {
      PUSHER_APP_ID: settings.appId,
      PUSHER_APP_KEY: settings.key,
      PUSHER_APP_SECRET: settings.secret,
      PUSHER_HOST: '127.0.0.1',
      PUSHER_PORT: String(port),
      PUSHER_SCHEME: 'http',
    },
    /** SIGTERM and wait, or `SIGKILL` to die on the spot. */
    stop: (signal?: NodeJS.Signals) => stop(signal),
  };
}
