// An upload worker thread started from the TypeScript sources (tests, `npm run dev`): tsx compiles its code as the
// request thread's was. The bundle `npm start` runs starts dist/server/upload-worker.mjs instead (build.mjs).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
