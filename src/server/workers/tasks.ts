/**
 * What an upload worker thread can do: each task reads one upload's bytes as they arrive (`push`) and gives its
 * result at the end. A task throws `LimitExceeded` for an input over a limit. Task modules stay free of the server's
 * services: a worker thread has no database, only the bytes and the options it was sent.
 */
export interface StreamTask<Result = unknown> {
  push(chunk: Uint8Array): void;
  end(): Result | Promise<Result>;
}

export type TaskName = 'csv' | 'geojson';
