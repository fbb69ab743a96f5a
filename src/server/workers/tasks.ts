/**
 * What an upload worker thread can do: each task reads one upload's bytes as they arrive (`push`) and gives its
 * result at the end. A task throws `LimitExceeded` for an input over a limit. Task modules stay free of the server's
 * services: a worker thread has no database, only the bytes and the options it was sent.
 */
export interface StreamTask<Result = unknown> {
  push(chunk: Uint8Array): void;
  end(): Result | Promise<Result>;
}

export type TaskName = 'csv' | 'geojson' | 'xlsx';

/**
 * Whether a task has a thread of its own. Reading a CSV file holds a few megabytes whatever its size: many share the
 * long-lived threads. Parsing a GeoJSON file holds all of it, and turning a workbook's sheet into CSV makes a heap's
 * worth of garbage: each has a thread, and that thread's memory cap, alone.
 */
export const OWN_THREAD: Record<TaskName, boolean> = { csv: false, geojson: true, xlsx: true };
