// Starts the embedded database's thread from the TypeScript sources (tests, `npm run dev`): tsx first, then the
// thread's module. `npm start` runs the bundled dist/server/pglite-worker.mjs instead.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.script);
