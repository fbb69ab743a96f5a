import { z } from 'zod';
import type { Feature, FeaturePlugin } from '../app-context.js';
import { noQuery } from '../http/contracts.js';
import { openApiDocument } from './openapi.js';

const document = z
  .looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.record(z.string(), z.unknown()) })
  .meta({ description: 'An OpenAPI 3.1 document.' });

/** GET /api/openapi.json: the API's OpenAPI 3.1 document, generated from the routes' contracts (docs/api.md). */
const apiDocsPlugin: FeaturePlugin = async (app, { ctx }) => {
  app.get(
    '/api/openapi.json',
    { schema: { querystring: noQuery, response: { 200: document } }, config: { permission: 'signed-in' } },
    async () => openApiDocument(app, ctx.db),
  );
};

export const apiDocsFeature: Feature = { plugin: apiDocsPlugin };
