import { STATUS_CODES } from 'node:http';
import fastifySwagger, { type SwaggerTransform } from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { OpenAPIV3_1 } from 'openapi-types';
import { z } from 'zod';
import { SESSION_COOKIE } from '../auth/sessions.js';
import type { Config } from '../config/config.js';
import type { DB } from '../db/schema.generated.js';
import { type SchemaSnapshot, schemaStore } from '../schemas/schema-store.js';
import { describedTypes, recordTypeComponents } from './record-types.js';

/**
 * A body declared per content type (`{content: {'multipart/form-data': {schema}}}`, http/contracts.ts `multipart`):
 * each type's zod schema as JSON Schema. The type provider's transform takes a body that is one zod schema only.
 */
function contentBody(body: unknown) {
  if (!body || typeof body !== 'object' || !('content' in body)) return null;
  const content = (body as { content: Record<string, { schema: z.ZodType }> }).content;
  return {
    content: Object.fromEntries(
      Object.entries(content).map(([type, { schema }]) => [
        type,
        { schema: z.toJSONSchema(fieldsOf(schema), { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) },
      ]),
    ),
  };
}

/** A multipart body's fields (its schema also lets the empty body Fastify sees through). */
function fieldsOf(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) inner = inner.unwrap() as z.ZodType;
  return inner;
}

const transform: SwaggerTransform = (document) => {
  const { body, ...rest } = (document.schema ?? {}) as Record<string, unknown>;
  const byContent = contentBody(body);
  if (!byContent) return jsonSchemaTransform(document);
  const transformed = jsonSchemaTransform({ ...document, schema: rest });
  return { ...transformed, schema: { ...transformed.schema, body: byContent } };
};

/**
 * Collects every route's contract as it is added (call before any route): @fastify/swagger with the zod type
 * provider's transforms, so the document says what the routes validate and serialise.
 */
export async function collectOpenApi(app: FastifyInstance, config: Config) {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${config.appName} API`,
        version: config.version,
        description:
          'The HTTP API of the organizing map (docs/api.md). Sign in with POST /api/auth/login; the session cookie then ' +
          'carries the person, and every unsafe request echoes the XSRF-TOKEN cookie in X-XSRF-TOKEN. Scripts send a ' +
          'personal access token instead: Authorization: Bearer <token>.',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
          token: {
            type: 'http',
            scheme: 'bearer',
            description: 'A personal access token (POST /api/tokens, or Profile, Tokens): no CSRF header needed.',
          },
        },
      },
      security: [{ session: [] }, { token: [] }],
    },
    transform,
    transformObject: jsonSchemaTransformObject,
  });
}

/** The generic record routes' answers and bodies, replaced per record type by its own (record-types.ts). */
const GENERIC = {
  page: '#/components/schemas/RecordPage',
  answer: '#/components/schemas/RecordAnswer',
  input: '#/components/schemas/RecordValuesInput',
};
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * The operations of one record type's paths: a built-in type's own routes (/api/sites), or a copy of the routes that
 * serve the types made in the app (/api/{resource}) without their `resource` parameter.
 */
function typePaths(paths: OpenAPIV3_1.PathsObject, resource: string) {
  const typed: OpenAPIV3_1.PathsObject = {};
  for (const tail of ['', '/{id}', '/{id}/restore']) {
    const own = paths[`/api/${resource}${tail}`];
    const generic = paths[`/api/{resource}${tail}`];
    if (own) typed[`/api/${resource}${tail}`] = own;
    else if (generic) {
      const copy = structuredClone(generic) as Record<string, OpenAPIV3_1.OperationObject>;
      for (const operation of Object.values(copy))
        operation.parameters = operation.parameters?.filter(
          (parameter) => !('name' in parameter && parameter.name === 'resource' && parameter.in === 'path'),
        );
      typed[`/api/${resource}${tail}`] = copy;
    }
  }
  return typed;
}

/** Each `$ref` under `value` to a generic record shape swapped for the type's own (`swap` gives it). */
function swapRefs(value: unknown, swap: (ref: string) => object | undefined) {
  if (!value || typeof value !== 'object') return;
  for (const [key, child] of Object.entries(value)) {
    const replacement =
      child && typeof child === 'object' && '$ref' in child
        ? swap(String((child as { $ref: unknown }).$ref))
        : undefined;
    if (replacement) (value as Record<string, unknown>)[key] = replacement;
    else swapRefs(child, swap);
  }
}

/** The document with every record type's fields: each type's components, and its CRUD paths answering them. */
function withRecordTypes(base: OpenAPIV3_1.Document, snapshot: SchemaSnapshot): OpenAPIV3_1.Document {
  const document = structuredClone(base);
  const schemas = ((document.components ??= {}).schemas ??= {});
  const paths = (document.paths ??= {});
  for (const described of describedTypes(snapshot)) {
    const { type, name_plural } = described.schema;
    Object.assign(schemas, recordTypeComponents(described));
    schemas[`${type}.page`] = {
      type: 'object',
      properties: { data: { type: 'array', items: ref(`${type}.record`) }, meta: ref('PageMeta') },
      required: ['data', 'meta'],
    };
    schemas[`${type}.answer`] = {
      type: 'object',
      properties: { data: ref(`${type}.record`), message: { type: 'string' } },
      required: ['data'],
    };
    for (const [path, item] of Object.entries(typePaths(paths, described.def.name))) {
      for (const [method, operation] of Object.entries(item as Record<string, OpenAPIV3_1.OperationObject>)) {
        operation.tags = [name_plural];
        const creates = method === 'post' && !path.endsWith('}') && !path.endsWith('/restore');
        swapRefs(operation, (target) => {
          if (target === GENERIC.page) return ref(`${type}.page`);
          if (target === GENERIC.answer) return ref(`${type}.answer`);
          if (target === GENERIC.input) return ref(`${type}.${creates ? 'create' : 'update'}`);
          return undefined;
        });
      }
      paths[path] = item;
    }
  }
  return document;
}

/** Groups whose name is not their path's first part. */
const GROUP_NAMES: Record<string, string> = {
  '{resource}': 'Record types made in the app',
  auth: 'Sign-in',
  sanctum: 'Sign-in',
  broadcasting: 'Realtime',
  metrics: 'Operations',
  health: 'Operations',
  ready: 'Operations',
  'openapi.json': 'API description',
};

/** The group (tag) of an operation no record type claims: the first part of its path, in words ("call-lists": "Call lists"). */
function groupOf(path: string): string {
  const part = path.replace(/^\/api\//, '/').split('/')[1] ?? '';
  const name = GROUP_NAMES[part] ?? part.replace(/[-_]/g, ' ');
  return name ? name[0].toUpperCase() + name.slice(1) : 'Other';
}

/** Statuses HTTP does not name: 419 is the answer to an unsafe request without its CSRF header (docs/security.md). */
const OWN_STATUSES: Record<string, string> = { '419': 'Page Expired (the X-XSRF-TOKEN header is missing or stale)' };

/**
 * Every operation in a group, so the reference lists the API by feature rather than as one long list; each answer
 * described by its status ("Unprocessable Entity") where the contract gave none of its own.
 */
function withGroups(document: OpenAPIV3_1.Document): OpenAPIV3_1.Document {
  for (const [path, item] of Object.entries(document.paths ?? {}))
    for (const operation of Object.values(item as Record<string, OpenAPIV3_1.OperationObject>)) {
      if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
      if (!operation.tags?.length) operation.tags = [groupOf(path)];
      for (const [status, response] of Object.entries(operation.responses ?? {}))
        if ('description' in response && response.description === 'Default Response')
          response.description = STATUS_CODES[status] ?? OWN_STATUSES[status] ?? response.description;
    }
  return document;
}

const built = new WeakMap<SchemaSnapshot, OpenAPIV3_1.Document>();

/**
 * The OpenAPI 3.1 document of the API: the routes' contracts, and each record type's fields as they are now (the
 * schema files and the types made in the app). Made again whenever a record type changes (a new schema snapshot).
 */
export async function openApiDocument(app: FastifyInstance, db: Kysely<DB>): Promise<OpenAPIV3_1.Document> {
  const snapshot = await schemaStore(db).snapshot();
  let document = built.get(snapshot);
  if (!document) {
    document = withGroups(withRecordTypes(app.swagger() as OpenAPIV3_1.Document, snapshot));
    built.set(snapshot, document);
  }
  return document;
}
