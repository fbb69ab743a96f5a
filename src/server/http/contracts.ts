import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * The shapes the routes' contracts share (docs/api.md): every route declares its params, query, body and answers with
 * zod (fastify-type-provider-zod), requests are validated and answers serialised from these declarations, and the
 * OpenAPI document is generated from them (http/openapi.ts). Shapes with an `id` in their meta are the document's
 * components.
 */

/** `:id` in a path: a row id, a positive 32-bit integer (anything else is a 422). */
export const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

/** A query that takes nothing (unknown parameters are ignored). */
export const noQuery = z.object({});

/** A body that carries nothing (whatever is sent is ignored). */
export const noBody = z.unknown().optional();

/** A body whose fields are all optional: none sent (no body, or JSON null) reads as `{}`. */
export const optionalBody = <T extends z.ZodType>(schema: T) => z.preprocess((value) => value ?? {}, schema);

/** A date or timestamp as the database gives it (a Date, sent as ISO 8601) or as text. */
export const timestamp = z.union([z.date(), z.string()]);

/**
 * A record as the API presents it. Its fields depend on its record type at run time (schemas/*.json and the fields
 * made in the app, GET /api/schemas), so every field passes through.
 */
export const record = z
  .looseObject({ id: z.number().int() })
  .meta({ id: 'Record', description: "A record: its id and its type's fields (GET /api/schemas describes them)." }) as
  // The server holds records as plain objects of its type's fields.
  unknown as z.ZodType<Record<string, any>>;

/** `?with_trashed=1`: a deleted record too. */
export const showQuery = z.object({ with_trashed: z.string().optional() });

/**
 * A row the server presents whole (a job's row, a report's line): the contract names the fields clients rely on, the
 * others pass through.
 */
export const rowWith = <T extends z.ZodRawShape>(shape: T) =>
  z.looseObject(shape) as unknown as z.ZodType<Record<string, any>>;

/** `?page=&per_page=` of a plain paged list (a log): 25 a page by default, at most 100. */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  per_page: z.coerce.number().int().min(1).max(100).optional().default(25),
});

/** The paginator meta of page `page` holding `count` of `total` rows. */
export function pageMetaOf(page: number, perPage: number, total: number, count: number) {
  return {
    current_page: page,
    from: count ? (page - 1) * perPage + 1 : null,
    to: count ? (page - 1) * perPage + count : null,
    per_page: perPage,
    total,
    last_page: Math.max(1, Math.ceil(total / perPage)),
  };
}

/** The page a list answers with (Laravel's paginator meta). */
export const pageMeta = z
  .object({
    current_page: z.number().int(),
    from: z.number().int().nullable(),
    to: z.number().int().nullable(),
    per_page: z.number().int(),
    total: z.number().int(),
    /** Past an exact count's limit the total is an estimate. */
    total_estimated: z.literal(true).optional(),
    last_page: z.number().int(),
    /** Sent back as `cursor=` with the next page: that page is sought rather than counted to. */
    next_cursor: z.string().optional(),
  })
  .meta({ id: 'PageMeta' });

/** `{data}` with an optional message ('Site created successfully.'). */
export const answer = <T extends z.ZodType>(data: T) => z.object({ data, message: z.string().optional() });

/** A page of items: `{data: [...], meta}`. */
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: pageMeta });

export const recordAnswer = answer(record).meta({ id: 'RecordAnswer' });
export const recordPage = pageOf(record).meta({ id: 'RecordPage' });

/** Only a message: 'Saved.', or what went wrong (401, 403, 404, 409, 419, 429). */
export const messageAnswer = z.looseObject({ message: z.string() }).meta({ id: 'Message' });

/** 422: what was wrong, with the messages of each field when the fault is in fields. */
export const invalidAnswer = z
  .looseObject({ message: z.string(), errors: z.record(z.string(), z.array(z.string())).optional() })
  .meta({ id: 'ValidationErrors' });

/**
 * The bytes of a file. Sent as a stream, a buffer or text, which Fastify sends as they are (no serialiser runs), so
 * the server may hand any of them.
 */
const fileBytes = (format?: string) =>
  (format ? z.string().meta({ format }) : z.string()) as unknown as z.ZodType<string | Buffer | Readable>;

/** A CSV file (an export, a report, an import's error report). */
export const csvFile = { description: 'A CSV file.', content: { 'text/csv': { schema: fileBytes() } } };

/** A PDF document (a card's receipt). */
export const pdfFile = {
  description: 'A PDF document.',
  content: { 'application/pdf': { schema: fileBytes('binary') } },
};

/** A file as stored (a document, an attachment): its own content type. */
export const storedFile = {
  description: 'The file, with its own content type.',
  content: { 'application/octet-stream': { schema: fileBytes('binary') } },
};

/**
 * A multipart/form-data body: the parts are read by the route as they arrive (after its permission check), so the
 * body Fastify sees is empty (null); the fields are declared for the OpenAPI document.
 */
export const multipart = <T extends z.ZodRawShape>(fields: T) => ({
  content: {
    'multipart/form-data': { schema: z.object(fields).nullish() },
  },
});

/** An uploaded file's part in a multipart body. */
export const filePart = z.string().meta({ format: 'binary' });

/**
 * Routes of `app` validate their requests and serialise their answers with their zod contracts, and declare the
 * shared error answers (the app, app.ts; a test's bare Fastify mounting one feature).
 */
export function applyContracts(app: FastifyInstance) {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  declareErrorAnswers(app);
}

/**
 * The error answers every route may give, added to each route's declared answers where it does not name them itself
 * (onRoute, before Fastify compiles them): 401 and 403 unless the route is public (and on every /api route, which a
 * token reaches), 404, 419 on unsafe methods (CSRF) with 400, 413 and 415 (a body that is no JSON, too large or of a type not read), 422, 429 on /api routes (a token's rate). Routes declare the
 * rarer ones themselves (409 stale update, 503 not ready).
 */
export function declareErrorAnswers(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const response = route.schema?.response as Record<string, unknown> | undefined;
    if (!response) return;
    const add = (status: number, shape: z.ZodType) => {
      if (!(status in response)) response[status] = shape;
    };
    // A personal access token reaches any /api route (tokens/token-requests.ts): refused (401), kept out of the
    // account or of writes (403), or past its rate (429), public routes included.
    const api = route.url.startsWith('/api/');
    if (route.config?.permission !== 'public' || api) {
      add(401, messageAnswer);
      add(403, messageAnswer);
    }
    if (api) add(429, messageAnswer);
    add(404, messageAnswer);
    if ([route.method].flat().some((method) => UNSAFE_METHODS.has(method))) {
      add(419, messageAnswer);
      // A body that is no JSON, too large, or of a type the route does not read.
      add(400, messageAnswer);
      add(413, messageAnswer);
      add(415, messageAnswer);
    }
    add(422, invalidAnswer);
  });
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** One query parameter: a value, or several when the name repeats (`ids[]=1&ids[]=2`). */
export const queryValue = z.union([z.string(), z.array(z.string())]);

/**
 * The query of a record list (docs/api.md "Lists"): paging, sort, search, trash, and `filter[field]` /
 * `filter[field_from]`... for any field of the type (they pass through; the list query checks them by the type).
 * Queries, params and headers have no component id: the OpenAPI document lists their parameters one by one.
 */
export const listQuery = z.looseObject({
  page: z.string().optional().describe('The page, from 1.'),
  per_page: z.string().optional().describe('Records per page (at most 1000), or -1 for all.'),
  sort: z.string().optional().describe('The field to sort by; a leading - sorts descending.'),
  order: z.string().optional().describe('asc or desc.'),
  search: z.string().optional().describe('Text searched in the search columns of the type.'),
  filter: z.string().optional().describe('Filters as one JSON object (or filter[field]=value parameters).'),
  with_trashed: z.string().optional().describe('1: deleted records too (needs restore permission).'),
  only_trashed: z.string().optional().describe('1: deleted records only (needs restore permission).'),
  total: z.string().optional().describe('estimate: an estimated total past the exact count limit.'),
  cursor: z.string().optional().describe("The previous page's meta.next_cursor, with the same list parameters."),
});

/** The values of a record to create or update: its type's fields (GET /api/schemas), checked by the record service. */
export const recordInput = z
  .looseObject({}, { error: 'Send the record as a JSON object.' })
  .meta({ id: 'RecordValues', description: "The record's fields, as its type describes them (GET /api/schemas)." });
