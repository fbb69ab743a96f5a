import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { OpenAPIV3_1 } from 'openapi-types';
import { openApiDocument } from '../../src/server/api-docs/openapi.js';
import type { DB } from '../../src/server/db/schema.generated.js';

/** A JSON answer the API test suite received. */
export interface ReceivedAnswer {
  method: string;
  url: string;
  status: number;
  contentType: string;
  body: unknown;
}

interface PathMatcher {
  path: string;
  pattern: RegExp;
  params: number;
}

/** A document with its validators compiled on first use and its paths as patterns, most specific first. */
interface CompiledDocument {
  ajv: Ajv2020;
  matchers: PathMatcher[];
  validators: Map<string, ValidateFunction>;
}

const DOCUMENT_ID = 'https://organizing-map.test/openapi.json';
const compiled = new WeakMap<OpenAPIV3_1.Document, CompiledDocument>();

function compile(document: OpenAPIV3_1.Document): CompiledDocument {
  let done = compiled.get(document);
  if (done) return done;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document as object, DOCUMENT_ID);
  const matchers = Object.keys(document.paths ?? {})
    .map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`),
      params: (path.match(/\{/g) ?? []).length,
    }))
    // A static segment wins over a parameter, as in Fastify's router (/api/sites before /api/{resource}).
    .sort((a, b) => a.params - b.params || b.path.length - a.path.length);
  done = { ajv, matchers, validators: new Map() };
  compiled.set(document, done);
  return done;
}

const pointer = (...keys: string[]) =>
  keys.map((key) => encodeURIComponent(key.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

/**
 * Checks each JSON answer against GET /api/openapi.json as the server makes it now (regenerated when a record type
 * changes): the operation its method and path name, the answer declared for its status, that answer's JSON Schema.
 * Returns what does not match, or null. A test client calls it on every answer (test-app.ts), so the document cannot
 * drift from the API.
 */
export function openApiResponseCheck(app: FastifyInstance, db: Kysely<DB>) {
  return async (answer: ReceivedAnswer): Promise<string | null> => {
    if (!answer.contentType.includes('application/json')) return null;
    const document = await openApiDocument(app, db);
    const { ajv, matchers, validators } = compile(document);
    const path = new URL(answer.url, 'http://x').pathname;
    const method = answer.method.toLowerCase();
    const item = matchers.find(
      (m) => m.pattern.test(path) && (document.paths?.[m.path] as Record<string, unknown>)?.[method],
    );
    const where = `${answer.method} ${path} answered ${answer.status}`;
    // An unknown route's 404 (or a method it does not serve) is no operation's answer.
    if (!item) return answer.status < 300 ? `${where}, but the OpenAPI document has no such operation` : null;
    const operation = (document.paths![item.path] as Record<string, OpenAPIV3_1.OperationObject>)[method];
    const declared = operation.responses?.[String(answer.status)] as OpenAPIV3_1.ResponseObject | undefined;
    if (!declared) return `${where}, which ${answer.method} ${item.path} does not declare in the OpenAPI document`;
    if (!declared.content?.['application/json']) return null;
    const ref = `${DOCUMENT_ID}#/${pointer('paths', item.path, method, 'responses', String(answer.status), 'content', 'application/json', 'schema')}`;
    let validate = validators.get(ref);
    if (!validate) {
      validate = ajv.getSchema(ref);
      if (!validate) return `${where}: no schema at ${ref}`;
      validators.set(ref, validate);
    }
    if (validate(answer.body)) return null;
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}`);
    return `${where}, not matching the OpenAPI document (${item.path}): ${errors.join('; ')}; body ${JSON.stringify(answer.body).slice(0, 300)}`;
  };
}
