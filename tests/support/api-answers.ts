/** The checks the API tests make of an answer: it succeeded with this status (its data), or it refused a field. */
import { expect } from 'vitest';

export interface Row {
  id: number;
  updated_at?: string;
  [key: string]: unknown;
}
export interface Answer {
  status: number;
  body: { data?: unknown; meta?: unknown; errors?: Record<string, string[]>; message?: string };
}

/** The answer's data, after checking its status (200 unless told). */
export const ok = (res: Answer, status = 200) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body.data as Row;
};

/** The whole body (its data and meta), after checking its status (200 unless told). */
// biome-ignore lint/suspicious/noExplicitAny: an answer's body is whatever the endpoint returns
export const okBody = (res: Answer, status = 200): any => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
};

/** A 422 whose first error on `field` (else its message) matches. */
export const refused = (res: Answer, field: string, message: string | RegExp) => {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body.errors?.[field]?.[0] ?? res.body.message, JSON.stringify(res.body)).toMatch(message);
};
