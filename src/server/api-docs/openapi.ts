import fastifySwagger, { type SwaggerTransform } from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { OpenAPIV3_1 } from 'openapi-types';
import { z } from 'zod';
import { SESSION_COOKIE } from '../auth/sessions.js';
import type { Config } from '../config/config.js';

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
          'carries the person, and every unsafe request echoes the XSRF-TOKEN cookie in X-XSRF-TOKEN.',
      },
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE } },
      },
      security: [{ session: [] }],
    },
    transform,
    transformObject: jsonSchemaTransformObject,
  });
}

/**
 * The OpenAPI 3.1 document of the API, built from the routes' contracts. The one place that builds it: what is added
 * later (the record types' field schemas) is added here.
 */
export function openApiDocument(app: FastifyInstance): OpenAPIV3_1.Document {
  return app.swagger() as OpenAPIV3_1.Document;
}
