/**
 * The run-time function child of <Admin>: waits for the session check and, for a signed-in person, for
 * config, features and schemas (the spinner shows meanwhile), then declares the resources and routes. When they are
 * known as the app renders (the start answer brought them), App declares the same elements directly instead.
 *
 * react-admin merges every resolved call into its route table, so a call overtaken by a newer one resolves
 * with nothing, after the newer one. Errors are caught: a rejected promise would leave the spinner forever.
 */
import type { ReactElement } from 'react';
import { buildResources, layoutRoutes } from '../resources/registry';
import type { Schema } from '../system/types';
import { FEATURES } from './features';
import { mainData, session } from './services';

let latest: Promise<ReactElement[]> | null = null;

/** The `<Resource>` elements and layout routes for these record types. */
export function resourceElements(schemas: readonly Schema[]): ReactElement[] {
  return [...buildResources(FEATURES, schemas), layoutRoutes(FEATURES)];
}

/**
 * The app declares the resources itself (the session and record types were known when it rendered): a function
 * child's call still waiting resolves with nothing, so react-admin does not add its routes a second time.
 */
export function declaredDirectly(): void {
  latest = Promise.resolve([]);
}

async function declare(): Promise<ReactElement[]> {
  try {
    const user = await session.check();
    if (user) await mainData.ready();
    return resourceElements(user ? mainData.getState().schemas : []);
  } catch (error) {
    console.error('Error declaring resources:', error);
    return resourceElements([]);
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
