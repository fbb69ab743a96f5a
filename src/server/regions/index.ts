import type { Feature } from '../app-context.js';
import { regionsResource } from './regions-resource.js';
import { regionRoutes } from './regions-routes.js';

/**
 * Regions (docs/map.md "Regions"): the resource (schema-backed: fields added to the `region` schema live in
 * `custom`) and its routes beyond the generic ones: colours, Census shapes, GeoJSON uploads, the shape picker.
 */
export const regionsFeature: Feature = { resources: [regionsResource], plugin: regionRoutes };
