import type { Feature } from '../app-context.js';
import { accessRoutes } from './routes.js';

/**
 * The access policy (docs/security.md "The access policy"): the policy itself is the record service's
 * (`ctx.records.access`, made by app.ts); this feature serves the role screen's routes.
 */
export const accessFeature: Feature = { plugin: accessRoutes };
