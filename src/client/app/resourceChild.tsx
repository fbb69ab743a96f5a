/**
 * The run-time function child of <Admin>: waits for the session check and, for a signed-in person, for
 * config, features and schemas (the spinner shows meanwhile), then declares the resources and routes.
 *
 * react-admin merges every resolved call into its route table, so a call overtaken by a newer one resolves
 * with nothing, after the newer one. Errors are caught: a rejected promise would leave the spinner forever.
 */
import type { ReactElement } from 'react';
import { buildResources, layoutRoutes } from '../resources/registry';
import { FEATURES } from './features';
import { mainData, session } from './services';

let latest: Promise<ReactElement[]> | null = null;

async function declare(): Promise<ReactElement[]> {
  try {
    const user = await session.check();
    if (user) await mainData.ready();
    const schemas = user ? mainData.getState().schemas : [];
    return [...buildResources(FEATURES, schemas), layoutRoutes(FEATURES)];
  } catch (error) {
    console.error('Error declaring resources:', error);
    return [...buildResources(FEATURES, []), layoutRoutes(FEATURES)];
  }
}

export function createResourceChild() {
  return function resourceChild(): Promise<ReactElement[]> {
    const mine = declare();
    latest = mine;
    return mine.then(async (elements) => {
      if (latest === mine) return elements;
      await latest;
      return [];
    });
  };
}
