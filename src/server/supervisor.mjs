// The supervisor of `npm start` (start.mjs): runs the built server in a child process and starts it again when it
// dies, so a crash (an uncaught error, memory exhausted, kill -9) costs seconds, not the service.
//
// - The child gets this process's node options (--max-old-space-size and the rest of the start script) and its
//   environment (MALLOC_*), so the memory settings apply to the server, not only to this small process.
// - A server that came up (it says "ready" over the IPC channel once it listens) is always started again: after 1 s,
//   then 2, 4, 8 ... up to 60 s while it keeps dying within a minute of its start; a minute of life resets the pace.
// - A server that never came up (a bad setting, the port taken, the data folder held) is tried 5 times at the same
//   pace, then the supervisor gives up with exit code 1: starting it again will not help, and systemd or the
//   container's restart policy takes it from there.
// - SIGTERM, SIGINT and SIGHUP are passed on to the server, which finishes its requests and closes the database;
//   the supervisor then exits with the server's exit code. If the supervisor itself is killed, the server sees its
//   IPC channel close and stops the same graceful way.
import { fork } from 'node:child_process';

export const QUICK_CRASH_MS = 60_000;
export const MAX_DELAY_MS = 60_000;
export const FAILED_STARTS_BEFORE_GIVING_UP = 5;

/** Seconds to wait before the next start after `crashes` quick crashes in a row: 1, 2, 4 ... at most 60. */
export const restartDelayMs = (crashes) => Math.min(MAX_DELAY_MS, 1_000 * 2 ** Math.max(0, crashes - 1));

/** One JSON line on stderr, in the shape of the server's own log (pino), so the same log collector reads both. */
function log(level, msg, extra = {}) {
  const levels = { info: 30, warn: 40, error: 50, fatal: 60 };
  process.stderr.write(
    `${JSON.stringify({ level: levels[level], time: Date.now(), pid: process.pid, name: 'supervisor', msg, ...extra })}\n`,
  );
}

/**
 * The node options for the server process: this process's own (memory, V8 flags), without a script given on the
 * command line (`-e`, `-p`, `--input-type`), which the child would run instead of the server. Source maps are not
 * turned on unless asked (`node --enable-source-maps src/server/start.mjs`): Node keeps every loaded module's map
 * decoded in memory, 16-21 MB of the server's idle 270 (docs/operations.md "Stack traces").
 */
export function serverNodeOptions(execArgv) {
  const options = [];
  for (let i = 0; i < execArgv.length; i++) {
    const option = execArgv[i];
    if (['-e', '--eval', '-p', '--print'].includes(option)) i++;
    else if (!/^(--eval=|--print=|--input-type)/.test(option)) options.push(option);
  }
  return options;
}

/** Runs `entry` (the built server) and keeps it running; resolves never: the process exits with the server. */
export function supervise(entry, { execArgv = process.execArgv } = {}) {
  // A server process is never a supervisor itself: whatever goes wrong, no chain of supervisors.
  if (process.env.OM_SUPERVISED === '1') throw new Error('The server process cannot start a supervisor.');
  let child = null;
  let stopping = false;
  let quickCrashes = 0;
  let failedStarts = 0;
  let restartTimer = null;

  const start = () => {
    restartTimer = null;
    const startedAt = Date.now();
    let ready = false;
    child = fork(entry, process.argv.slice(2), {
      execArgv: serverNodeOptions(execArgv),
      env: { ...process.env, OM_SUPERVISED: '1' },
      stdio: 'inherit',
    });
    child.on('message', (message) => {
      if (message?.type === 'ready') {
        ready = true;
        failedStarts = 0;
      }
    });
    const pid = child.pid;
    child.on('exit', (code, signal) => {
      child = null;
      if (stopping) process.exit(code ?? (signal ? 1 : 0));
      // Stopped on purpose (its own SIGTERM, sent to it alone): the service is meant to be down.
      if (code === 0) {
        log('info', 'The server stopped on its own request; the supervisor stops too.');
        process.exit(0);
      }
      const lived = Date.now() - startedAt;
      quickCrashes = lived < QUICK_CRASH_MS ? quickCrashes + 1 : 1;
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      if (!ready && ++failedStarts >= FAILED_STARTS_BEFORE_GIVING_UP) {
        log('fatal', `The server ${how} before it was ready, ${failedStarts} times in a row: giving up.`, {
          exitCode: code,
          signal,
        });
        process.exit(1);
      }
      const delay = restartDelayMs(quickCrashes);
      log(
        'error',
        `The server (pid ${pid}) ${how} after ${Math.round(lived / 1000)} s; starting it again in ${delay / 1000} s.`,
        {
          exitCode: code,
          signal,
          crashesInARow: quickCrashes,
        },
      );
      restartTimer = setTimeout(start, delay);
    });
    child.once('spawn', () => log('info', `Started the server process (pid ${pid}).`, { serverPid: pid }));
  };

  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
    process.on(signal, () => {
      stopping = true;
      if (restartTimer) {
        clearTimeout(restartTimer);
        process.exit(0);
      }
      // A terminal's Ctrl-C reaches the whole process group, the server too: it stops once whichever comes first.
      child?.kill(signal);
    });
  }
  start();
}
