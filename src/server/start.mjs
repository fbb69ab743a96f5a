// `npm start`: builds the client and the server when they are missing or older than their sources (build.mjs),
// then runs the server bundle in a child process under a small supervisor (supervisor.mjs) that starts it again
// after a crash. `npm run dev`, the tests and most benchmarks run the TypeScript sources through tsx instead.
import { buildClientIfStale, buildServerIfStale, builtServer } from './build.mjs';
import { supervise } from './supervisor.mjs';

if (process.env.SKIP_CLIENT_BUILD !== '1') buildClientIfStale();
await buildServerIfStale();

supervise(builtServer);
