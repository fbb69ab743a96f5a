/**
 * The start answer (GET /api/bootstrap): config, the signed-in person, features and record types in one request,
 * started by public/start.js from index.html before the app's chunk runs. The app takes it once, at start-up, in
 * place of GET /api/system/config, /api/auth/check, /api/features and /api/schemas; every later load asks those
 * endpoints.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { SessionUser } from '../session/types';
import type { Feature, Schema, SystemConfig } from '../system/types';

/** The start request's path (public/start.js asks it before the bundle runs). */
export const START_PATH = '/api/bootstrap';

export interface StartAnswer {
  config: SystemConfig;
  user: SessionUser | null;
  /** Left out when signed out, or when the person may not read them. */
  features?: Feature[];
  schemas?: Schema[];
}

declare global {
  interface Window {
    __startAnswer?: Promise<StartAnswer | null>;
  }
}

/** The start answer on its way, once (null without one: no start script, or it failed). */
export function takeStartAnswer(): Promise<StartAnswer | null> {
  if (typeof window === 'undefined' || !window.__startAnswer) return Promise.resolve(null);
  const answer = window.__startAnswer;
  delete window.__startAnswer;
  return answer.catch(() => null);
}

/**
 * react-admin asks the authProvider before it shows the dashboard (`WithPermissions`: checkAuth, then
 * getPermissions) and before it builds its routes (getPermissions); with the person known from the start answer,
 * those react-query entries are filled with what the authProvider would answer (the keys of ra-core's
 * `useAuthState` and `usePermissions`), so the first screen renders without waiting for them. They are asked again
 * like any cached query when the session's user changes (app/services.ts).
 */
export function primeAuthQueries(queryClient: QueryClient, user: SessionUser): void {
  const permissions = user.permissions ?? [];
  const dashboard = { route: 'dashboard' };
  queryClient.setQueryData(['auth', 'checkAuth', dashboard], true);
  queryClient.setQueryData(['auth', 'getPermissions', { params: dashboard }], permissions);
  queryClient.setQueryData(['auth', 'getPermissions', {}], permissions);
}
