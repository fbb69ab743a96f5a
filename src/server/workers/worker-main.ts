import { parentPort } from 'node:worker_threads';
import { LimitExceeded } from '../config/input-limits.js';
import { CsvScanner } from '../imports/csv-scan.js';
import { GeoJsonReader } from '../regions/upload.js';
import type { StreamTask, TaskName } from './tasks.js';

/**
 * An upload worker thread (workers/upload-workers.ts): runs one task at a time on the bytes the request thread sends
 * it, acknowledging each chunk so the sender never runs ahead by more than a few, and posts the task's result, or the
 * limit it found passed, or its error. Messages carry the session's id: a late message of an abandoned session is
 * told apart from the next one's.
 */
const TASKS: Record<TaskName, (options: any) => StreamTask> = {
  csv: (options) => new CsvScanner(options),
  geojson: (options) => new GeoJsonReader(options),
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
let current: { id: number; task: StreamTask; failed: boolean } | null = null;

function fail(id: number, error: unknown) {
  if (current?.id === id) current.failed = true;
  const message: FromWorker =
    error instanceof LimitExceeded
      ? { type: 'limit', id, kind: error.kind, line: error.line }
      : { type: 'error', id, message: error instanceof Error ? error.message : String(error) };
  port.postMessage(message);
}

port.on('message', async (message: ToWorker) => {
  if (message.type === 'start') {
    try {
      current = { id: message.id, task: TASKS[message.task](message.options), failed: false };
    } catch (error) {
      fail(message.id, error);
    }
    return;
  }
  const session = current;
  if (!session || session.id !== message.id) return;
  if (message.type === 'abort') {
    current = null;
    return;
  }
  if (message.type === 'chunk') {
    if (!session.failed) {
      try {
        session.task.push(message.chunk);
      } catch (error) {
        fail(session.id, error);
      }
    }
    port.postMessage({ type: 'ack', id: session.id } satisfies FromWorker);
    return;
  }
  current = null;
  if (session.failed) return;
  try {
    const result = await session.task.end();
    port.postMessage({ type: 'done', id: session.id, result } satisfies FromWorker);
  } catch (error) {
    fail(session.id, error);
  }
});
