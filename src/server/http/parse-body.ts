import type { FastifySchemaValidationError } from 'fastify';
import type { z } from 'zod';
import { type FieldErrors, ValidationError } from './errors.js';

/**
 * The messages of each field, from the issues a zod contract found (a route's, as fastify-type-provider-zod passes
 * them on, or parseBody's); a field the contract does not know is named as such. `part` names the whole of the input
 * when the fault is not in one field ('body', 'querystring', 'params').
 */
export function fieldErrorsOf(issues: readonly FastifySchemaValidationError[], part = 'body'): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => {
    errors[field] ??= [];
    errors[field].push(message);
  };
  for (const issue of issues) {
    const keys = (issue.params as { keys?: unknown })?.keys;
    if (issue.keyword === 'unrecognized_keys' && Array.isArray(keys)) {
      for (const key of keys) add(String(key), `The field "${key}" is not known here.`);
      continue;
    }
    const field =
      (issue.instancePath || '').replace(/^\//, '').replace(/\//g, '.') ||
      String((issue.params as { missingProperty?: unknown })?.missingProperty ?? part);
    add(field, issue.message ?? 'is invalid');
  }
  return errors;
}

/**
 * Validates input a route reads itself (the fields of a multipart upload, a file's JSON) with zod and answers 422 with
 * one message per field, as a route's declared contract does.
 */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    keyword: issue.code,
    instancePath: issue.path.length ? `/${issue.path.join('/')}` : '',
    schemaPath: '',
    params: issue as unknown as Record<string, unknown>,
    message: issue.message,
  }));
  throw new ValidationError(fieldErrorsOf(issues));
}
