import { parentPort } from 'node:worker_threads';
import { LimitExceeded } from '../config/input-limits.js';
import { CsvScanner, type CsvScanOptions } from '../imports/csv-scan.js';
import { XlsxToCsv, type XlsxToCsvOptions } from '../imports/xlsx-to-csv.js';
import { type GeoJsonOptions, GeoJsonReader } from '../regions/upload.js';
import type { StreamTask, TaskName } from './tasks.js';

/**
 * An upload worker thread (workers/upload-workers.ts): runs the tasks of the uploads the request thread sends it, each
 * on its own bytes, several at once (they take turns chunk by chunk). Each chunk is acknowledged so the sender never
 * runs ahead by more than a few; at the end the task's result is posted, or the limit it found passed, or its error.
 * Messages carry the upload's session id.
 */
const TASKS: Record<TaskName, (options: unknown) => StreamTask> = {
  csv: (options) => new CsvScanner(options as CsvScanOptions),
  geojson: (options) => new GeoJsonReader(options as GeoJsonOptions),
  xlsx: (options) => new XlsxToCsv(options as XlsxToCsvOptions),
};

export type ToWorker =
  | { type: 'start'; id: number; task: TaskName; options: unknown }
  | { type: 'chunk'; id: number; chunk: Uint8Array }
  | { type: 'end'; id: number }
  | { type: 'abort'; id: number };

export type FromWorker =
  | { type: 'ack'; id: number }
  | { type: 'done'; id: number; result: unknown }
  | { type: 'limit'; id: number; kind: LimitExceeded['kind']; line?: number }
  | { type: 'error'; id: number; message: string };

const port = parentPort!;
/** The uploads being read, by session id; a failed one stays until its end or abort, its chunks ignored. */
const sessions = new Map<number, { task: StreamTask; failed: boolean }>();

function fail(id: number, error: unknown) {
  const session = sessions.get(id);
  if (session) session.failed = true;
  const message: FromWorker =
    error instanceof LimitExceeded
      ? { type: 'limit', id, kind: error.kind, line: error.line }
      : { type: 'error', id, message: error instanceof Error ? error.message : String(error) };
  port.postMessage(message);
}

port.on('message', async (message: ToWorker) => {
  const { id } = message;
  if (message.type === 'start') {
    try {
      sessions.set(id, { task: TASKS[message.task](message.options), failed: false });
    } catch (error) {
      sessions.set(id, { task: { push() {}, end() {} }, failed: false });
      fail(id, error);
    }
    return;
  }
  const session = sessions.get(id);
  if (!session) return;
  if (message.type === 'abort') {
    sessions.delete(id);
    return;
  }
  if (message.type === 'chunk') {
    if (!session.failed) {
      try {
        session.task.push(message.chunk);
      } catch (error) {
        fail(id, error);
      }
    }
    port.postMessage({ type: 'ack', id } satisfies FromWorker);
    return;
  }
  sessions.delete(id);
  if (session.failed) return;
  try {
    const result = await session.task.end();
    port.postMessage({ type: 'done', id, result } satisfies FromWorker);
  } catch (error) {
    fail(id, error);
  }
});
