import type { Feature, FeaturePlugin } from '../app-context.js';
import { isRecordEvent } from '../events/app-events.js';
import { MapRegions } from './map-regions.js';
import { registerMapRoutes } from './map-routes.js';
import { mapServiceFor } from './map-service.js';

/** Record types whose changes can change what the map shows. */
const MAP_TYPES = new Set(['site', 'contractor', 'region', 'feature', 'site-type', 'site-status', 'trade']);

/**
 * The map (docs/map.md): its routes, and its listener on the app's event bus. A change to a record the map draws
 * (or a finished import, which may have created related records too) marks every marker index stale and rebuilds the
 * most used ones shortly. The listener runs before the realtime broadcaster (the bus calls listeners in the order
 * they subscribed and the broadcaster subscribes last), so a browser that hears of the change and asks for markers
 * again is answered from fresh data.
 */
const mapPlugin: FeaturePlugin = async (app, { ctx }) => {
  const service = mapServiceFor(ctx);
  ctx.events.on((event) => {
    if (event.event === 'ImportComplete' || (isRecordEvent(event) && MAP_TYPES.has(event.type))) service.changed();
  });
  registerMapRoutes(app, ctx, service, new MapRegions(ctx, service));
};

export const mapFeature: Feature = { plugin: mapPlugin };
