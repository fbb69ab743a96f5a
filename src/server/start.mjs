// `npm start`: builds the client and the server when they are missing or older than their sources (build.mjs),
// then runs the server bundle in this same process so signals reach it directly. `npm run dev`, the tests and
// most benchmarks run the TypeScript sources through tsx instead.
import { pathToFileURL } from 'node:url';
import { buildClientIfStale, buildServerIfStale, builtServer } from './build.mjs';

if (process.env.SKIP_CLIENT_BUILD !== '1') buildClientIfStale();
await buildServerIfStale();

// Stack traces in the log point at the TypeScript sources.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(builtServer).href);
