import type { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import type { AuthUser } from '../../auth/auth-user.js';
import { HttpError } from '../../http/errors.js';
import { readableTypes, recordLabel, recordUrl, type TypeInfo } from '../catalogue.js';
import type { Citation, Proposal } from '../resources.js';

/** The record a question is asked from ("this"): the page the person has open. */
export interface RecordRef {
  type: string;
  id: number;
  label?: string;
  url?: string;
}

/**
 * Everything a tool may use: the app's services and the asking person. Tools read only through the record service
 * and the report services, as `user`, so the same permissions, category filters and row rules apply as on screen.
 */
export interface ToolScope {
  app: AppContext;
  user: AuthUser;
  now: Date;
  types: TypeInfo[];
  context: RecordRef | null;
  /** A readable type by slug, resource, singular or plural name; undefined when there is none (or it may not be read). */
  typeOf(name: string | undefined | null): TypeInfo | undefined;
  cite(info: TypeInfo, record: Record<string, any>): Citation;
}

export async function createScope(
  app: AppContext,
  user: AuthUser,
  context: RecordRef | null = null,
  now = new Date(),
): Promise<ToolScope> {
  const types = await readableTypes(app, user);
  const names = new Map<string, TypeInfo>();
  for (const info of types)
    for (const name of [info.type, info.resource, info.singular, info.plural])
      if (!names.has(name)) names.set(name, info);
  const resourceOf = (type: string) => names.get(type)?.resource;
  return {
    app,
    user,
    now,
    types,
    context,
    typeOf: (name) => (name ? names.get(String(name).trim().toLowerCase()) : undefined),
    cite: (info, record) => ({
      type: info.type,
      id: record.id,
      label: recordLabel(record),
      url: recordUrl(resourceOf, info, record),
    }),
  };
}

/** What a tool call gives back: data for the model (JSON), the records it names, a proposal when it made one. */
export interface ToolResult {
  data: unknown;
  records: Citation[];
  proposal?: Proposal;
  /** The call was refused or could not be done: said in plain words (also in `data.error`). */
  error?: string;
  /** The records a count or list was about (its filters as the list query takes them): what an answer keeps. */
  listed?: Listed;
}

/** The records a count or list tool call was about: the type, the resolved filters, and how they were counted. */
export interface Listed {
  type: string;
  mode: 'count' | 'list' | 'group';
  filter: Record<string, unknown>;
  group_by?: { field: string; label: string; interval?: string };
  measure?: { fn: 'sum' | 'avg'; field: string; words: string };
}

export interface Tool<A = any> {
  name: string;
  description: string;
  /** JSON Schema of the arguments, as the model sees it. */
  parameters: Record<string, unknown>;
  args: z.ZodType<A>;
  run(args: A, scope: ToolScope): Promise<ToolResult>;
}

export const failure = (message: string): ToolResult => ({ data: { error: message }, records: [], error: message });

/** A refusal of the record service (403, 404, 422) as a tool result; anything else is a fault and is thrown. */
export async function guarded(work: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof HttpError && error.statusCode < 500) {
      const fields = (error as HttpError & { errors?: Record<string, string[]> }).errors;
      return failure(fields ? Object.values(fields).flat().join(' ') : error.message);
    }
    throw error;
  }
}

export function unknownType(scope: ToolScope, name: unknown): ToolResult {
  return failure(
    `There is no record type "${String(name)}" that you may read. You may read: ${scope.types.map((t) => t.plural).join(', ')}.`,
  );
}
