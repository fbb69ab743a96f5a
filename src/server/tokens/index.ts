import type { Feature } from '../app-context.js';
import { registerTokenRoutes } from './token-routes.js';

/** Personal access tokens for scripts (docs/api.md "Personal access tokens"); requests use them via token-requests.ts. */
export const tokensFeature: Feature = { plugin: async (app, { ctx }) => registerTokenRoutes(app, ctx) };
