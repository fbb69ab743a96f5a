import { ValidationError } from '../http/errors.js';
import type { InputLimits } from './config.js';

/**
 * The input limits in words (docs/settings.md "Input limits"). The numbers are settings (`config.limits`); every
 * upload and import path checks them while the input streams and refuses what is over one with this error: 422
 * naming the limit, under the field the input came in (`files`, `file`, `body`).
 */
export type LimitKind = keyof InputLimits | 'workerMemory';

const number = (n: number) => n.toLocaleString('en-US');

export function formatBytes(bytes: number): string {
  if (bytes >= 1_048_576) return `${Math.round((bytes / 1_048_576) * 10) / 10} MB`;
  if (bytes >= 1_024) return `${Math.round((bytes / 1_024) * 10) / 10} KB`;
  return `${bytes} bytes`;
}

export interface LimitDetails {
  /** The field of the answer's errors (default `files`). */
  field?: string;
  /** What is over the limit, as the sentence starts: `This file`, `"sites.csv"`. */
  subject?: string;
  /** The line of a file where the limit was passed (cells). */
  line?: number;
  /** The memory a worker may use, for `workerMemory` (MB). */
  memoryMb?: number;
  /** A GeoJSON file: its rows are features, its columns a feature's properties, `line` the feature's number. */
  geojson?: boolean;
}

function sentence(kind: LimitKind, limits: InputLimits, details: LimitDetails): string {
  const subject = details.subject ?? 'This file';
  const geojson = details.geojson === true;
  const where = details.line
    ? geojson
      ? ` in feature ${number(details.line)}`
      : ` on line ${number(details.line)}`
    : '';
  switch (kind) {
    case 'rows':
      return `${subject} has more than ${number(limits.rows)} ${geojson ? 'features' : 'rows'}; the most a file may have is ${number(limits.rows)}. Split it into smaller files and ${geojson ? 'upload' : 'import'} them one after the other.`;
    case 'columns':
      return geojson
        ? `${subject} has more than ${number(limits.columns)} properties${where}; the most a feature may have is ${number(limits.columns)}.`
        : `${subject} has more than ${number(limits.columns)} columns; the most a file may have is ${number(limits.columns)}.`;
    case 'cellBytes':
      return `${subject} has a ${geojson ? 'property value' : 'cell'}${where} larger than ${formatBytes(limits.cellBytes)}; the most one ${geojson ? 'value' : 'cell'} may hold is ${formatBytes(limits.cellBytes)}.`;
    case 'uploadBytes':
      return `${subject} is larger than ${formatBytes(limits.uploadBytes)}; the most a file may be is ${formatBytes(limits.uploadBytes)}. Split it into smaller files.`;
    case 'bodyBytes':
      return `The request is larger than ${formatBytes(limits.bodyBytes)}; the most one request may carry is ${formatBytes(limits.bodyBytes)}. Send less at a time.`;
    case 'workerMemory':
      return `${subject} needs more than the ${details.memoryMb ?? '?'} MB of memory one upload may use to be read. Split it into smaller files.`;
  }
}

/** An input over one of the limits: a 422 whose message names the limit in plain words. */
export class InputLimitError extends ValidationError {
  constructor(
    readonly kind: LimitKind,
    limits: InputLimits,
    details: LimitDetails = {},
  ) {
    const message = sentence(kind, limits, details);
    super({ [details.field ?? 'files']: [message] }, message);
  }
}

/**
 * An input limit passed where no HTTP answer is made (a worker thread, the import job): what and where, to be made
 * into an InputLimitError with the request's words (`toInputLimitError`).
 */
export class LimitExceeded extends Error {
  constructor(
    readonly kind: LimitKind,
    readonly line?: number,
  ) {
    super(`over the ${kind} limit${line ? ` on line ${line}` : ''}`);
  }
}

export function toInputLimitError(error: LimitExceeded, limits: InputLimits, details: LimitDetails = {}) {
  return new InputLimitError(error.kind, limits, { line: error.line, ...details });
}
