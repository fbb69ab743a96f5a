import type { z } from 'zod';
import { ValidationError } from './errors.js';

/** Validates a request body with zod and answers 422 with one message per field. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) (errors[key] ??= []).push(`The field "${key}" is not known here.`);
      continue;
    }
    const field = issue.path.join('.') || 'body';
    (errors[field] ??= []).push(issue.message);
  }
  throw new ValidationError(errors);
}
