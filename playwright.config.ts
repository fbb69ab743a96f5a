import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { scratchInMemory } from './tests/support/scratch-in-memory';

/**
 * End-to-end tests: Chromium against the real server (built client and server, fresh embedded database per run).
 * Run `npx vite build` first (npm run test:e2e does; the server's start would build a stale client itself, slowly).
 * Inactivity durations are set per test through the `inactivityOverride` localStorage key, not globally.
 *
 * With `E2E_LANES` above 1 the spec files are shared among that many workers, each with a server of its own (its own
 * port, database and realtime channels): a broadcast one test causes, such as the system-updated overlay, reaches only
 * its own lane, and a file's tests run in order on one lane. One lane by default: on two cores two lanes took as long
 * as one and more tests ran out of time (docs/client.md).
 */
const LANES = Math.max(1, Number(process.env.E2E_LANES ?? 1));
const FIRST_PORT = Number(process.env.E2E_PORT ?? 8123);
/** Lane n's server listens 100 ports above lane n-1's; a worker's lane is Playwright's parallel index. */
const portOfLane = (lane: number) => FIRST_PORT + 100 * lane;
export const E2E_PORT = portOfLane(Number(process.env.TEST_PARALLEL_INDEX ?? 0));
/** Where the lane's server sends texts: a fake provider a spec may start there. */
export const SMS_PROVIDER_PORT = E2E_PORT + 1;
scratchInMemory();
/**
 * The lanes' servers' data folders, made by the runner (a test worker loads this file too, and starts no server) and
 * removed when the run ends: in memory, they would hold its RAM until a restart.
 */
function laneFolders(): string {
  if (process.env.TEST_WORKER_INDEX !== undefined) return tmpdir();
  const folder = mkdtempSync(path.join(tmpdir(), 'om-e2e-'));
  process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
  return folder;
}
const scratch = laneFolders();

/**
 * Chromium's headless shell (Debian's `chromium-headless-shell`) when it is installed, else the whole browser in its
 * headless mode: the shell leaves out the desktop browser's parts and drew the same screens for about a third less
 * CPU (docs/testing.md). `CHROMIUM_PATH` chooses another.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? 'e2e-Admin-pass-2024';

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  // Separate folders let two runs (say, on E2E_PORT 8123 and 8133) share the checkout.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  fullyParallel: false,
  workers: LANES,
  // CI (.ci/run) gives a test that failed one more run: on a shared two-core machine a screen can miss a 10 s wait
  // once. The list reporter marks such a test "flaky", and a test that fails twice still fails the run.
  retries: Number(process.env.E2E_RETRIES ?? 0),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    // A trace records every action's page and a screencast: on two cores it took 40% of the suite's CPU (Chromium's
    // GPU and browser processes and the runner, docs/testing.md). It is recorded for a failed test's retry (CI
    // retries once: E2E_RETRIES); `--trace on` records one for a run by hand.
    trace: 'on-first-retry',
    // People who ask for less motion get no transitions and no ripples (src/client/theme/theme.ts); the tests are
    // such people, so no step waits for an animation to end.
    reducedMotion: 'reduce',
    // The offline service worker is tried by tests/e2e/offline.spec.ts, which allows it; elsewhere each test's answers
    // come from the server itself, as they did before the app had a worker.
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: Array.from({ length: LANES }, (_, lane) => ({
    // The server as `npm start` runs it: its bundle (built by start.mjs when missing or older than its sources) in a
    // child process of the supervisor. Through tsx each start compiled the sources anew (about 6 s more CPU).
    command: 'node src/server/start.mjs',
    url: `http://127.0.0.1:${portOfLane(lane)}/api/health`,
    reuseExistingServer: false,
    // A first start makes the database (migrations, seed, indexes): about 25 s of CPU, over two minutes on a busy machine.
    timeout: 300_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(portOfLane(lane)),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(scratch, `lane-${lane}`),
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      LOGIN_MAX_ATTEMPTS: '1000',
      // No tiles: the tile host is unreachable here, and Chromium's waits on it stalled same-origin requests for seconds.
      TILE_URL: '',
      // Texts go to a fake Twilio-compatible provider a spec starts on the next port (smsProviderPort, public-forms.spec.ts);
      // while none listens, a text fails as it would with a provider that does not answer.
      SMS_API_URL: `http://127.0.0.1:${portOfLane(lane) + 1}`,
      SMS_ACCOUNT_SID: 'AC-e2e',
      SMS_AUTH_TOKEN: 'e2e-sms-auth-token',
      SMS_FROM: '+15550009999',
    },
  })),
});
