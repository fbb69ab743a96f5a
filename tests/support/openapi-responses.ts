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

/** A document's paths as patterns, most specific first, and its validators by answer (compiled on first use). */
interface CompiledDocument {
  matchers: PathMatcher[];
  validators: Map<string, ValidateFunction>;
  /** The whole document in an Ajv of its own: only for an answer whose schema refers outside its components. */
  whole?: Ajv2020;
}

const DOCUMENT_ID = 'https://organizing-map.test/openapi.json';
const COMPONENTS = '#/components/schemas/';
const compiled = new WeakMap<OpenAPIV3_1.Document, CompiledDocument>();

/**
 * Validators by what they check (an answer's schema and the components it refers to), shared by every document of
 * the run: each app, and each record type change, makes a new document whose answer schemas are mostly the last
 * one's, and compiling is the check's dear part (docs/testing.md, "The response check").
 */
const byContent = new Map<string, ValidateFunction>();
const shared = newAjv();

function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv;
}

function compile(document: OpenAPIV3_1.Document): CompiledDocument {
  let done = compiled.get(document);
  if (done) return done;
  const matchers = Object.keys(document.paths ?? {})
    .map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`),
      params: (path.match(/\{/g) ?? []).length,
    }))
    // A static segment wins over a parameter, as in Fastify's router (/api/sites before /api/{resource}).
    .sort((a, b) => a.params - b.params || b.path.length - a.path.length);
  done = { matchers, validators: new Map() };
  compiled.set(document, done);
  return done;
}

/** The components `schema` refers to, directly or through others; null when it refers anywhere else. */
function referredComponents(document: OpenAPIV3_1.Document, schema: unknown): Record<string, unknown> | null {
  const components = (document.components?.schemas ?? {}) as Record<string, unknown>;
  const found: Record<string, unknown> = {};
  const visit = (value: unknown): boolean => {
    if (!value || typeof value !== 'object') return true;
    if (Array.isArray(value)) return value.every(visit);
    for (const [key, child] of Object.entries(value)) {
      if (key !== '$ref') {
        if (!visit(child)) return false;
        continue;
      }
      if (typeof child !== 'string' || !child.startsWith(COMPONENTS)) return false;
      const name = decodeURIComponent(child.slice(COMPONENTS.length)).replace(/~1/g, '/').replace(/~0/g, '~');
      if (name in found) continue;
      if (!(name in components)) return false;
      found[name] = components[name];
      if (!visit(components[name])) return false;
    }
    return true;
  };
  return visit(schema) ? found : null;
}

/** The validator of the schema at `at` in the document: one already compiled for the same content if any. */
function validatorOf(document: OpenAPIV3_1.Document, done: CompiledDocument, at: string[]): ValidateFunction | null {
  const key = at.join('\u0000');
  const known = done.validators.get(key);
  if (known) return known;
  let schema: unknown = document;
  for (const part of at) schema = (schema as Record<string, unknown> | undefined)?.[part];
  if (schema === undefined) return null;
  const components = referredComponents(document, schema);
  let validate: ValidateFunction | undefined;
  if (components && !(schema && typeof schema === 'object' && '$defs' in schema)) {
    const content = JSON.stringify([schema, components]);
    validate = byContent.get(content);
    if (!validate) {
      // Standalone: the components it needs under $defs, its references pointed there.
      const standalone = JSON.parse(
        JSON.stringify({ ...(schema as object), $defs: components }).replaceAll(`"${COMPONENTS}`, '"#/$defs/'),
      );
      validate = shared.compile(standalone);
      byContent.set(content, validate);
    }
  } else {
    done.whole ??= newAjv().addSchema(document as object, DOCUMENT_ID);
    validate = done.whole.getSchema(`${DOCUMENT_ID}#/${pointer(...at)}`);
    if (!validate) return null;
  }
  done.validators.set(key, validate);
  return validate;
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
    const done = compile(document);
    const { matchers } = done;
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
    const at = [
      'paths',
      item.path,
      method,
      'responses',
      String(answer.status),
      'content',
      'application/json',
      'schema',
    ];
    const validate = validatorOf(document, done, at);
    if (!validate) return `${where}: no schema at ${pointer(...at)}`;
    if (validate(answer.body)) return null;
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}`);
    return `${where}, not matching the OpenAPI document (${item.path}): ${errors.join('; ')}; body ${JSON.stringify(answer.body).slice(0, 300)}`;
  };
}
