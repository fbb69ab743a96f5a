/**
 * The app's single instances: HTTP client, session, main data, providers, react-query client. Built once
 * at start-up; React reads them through the hooks in app/hooks.ts.
 */
import { QueryClient, type QueryClientConfig } from '@tanstack/react-query';
import { HttpClient } from '../http/client';
import { createI18nProvider } from '../i18n/i18nProvider';
import { withOffline } from '../offline/offlineDataProvider';
import { offline } from '../offline/runtime';
import { createAuthProvider } from '../providers/authProvider';
import { createDataProvider } from '../providers/dataProvider';
import { setRecordTypes } from '../resources/names';
import { browserStorage, refreshSessionOnFailures, SessionStore } from '../session/sessionStore';
import { MainDataStore } from '../system/mainData';
import { primeAuthQueries, takeStartAnswer } from './startAnswer';

export const http = new HttpClient();
export const session = new SessionStore(http, browserStorage());
refreshSessionOnFailures(http, session);

export const dataProvider = withOffline(createDataProvider(http));
export const authProvider = createAuthProvider(http, session);
export const i18nProvider = createI18nProvider();

export const mainData = new MainDataStore({
  config: () => dataProvider.getConfig(),
  features: () => dataProvider.getFeatures(),
  schemas: () => dataProvider.getSchemas(),
  statistics: () => dataProvider.getStatistics(),
});

/** How the app's queries behave (the component tests build their clients with the same). */
export const queryDefaults: QueryClientConfig['defaultOptions'] = {
  // Reads and writes run whatever the browser says about its connection: with none, reads are answered from the
  // service worker's cache and writes go to the outbox (docs/offline.md), instead of waiting for "online".
  queries: {
    staleTime: 10_000,
    retry: false,
    refetchOnWindowFocus: false,
    networkMode: 'always',
  },
  mutations: { networkMode: 'always' },
};

export const queryClient = new QueryClient({ defaultOptions: queryDefaults });

offline.connect({ http, session, queryClient });
// The start answer (one request begun by index.html) settles the session check and brings the main data; without
// it the session and config are asked for on their own, and features and schemas when the app needs them.
const start = takeStartAnswer();
session.adopt(start.then((answer) => answer?.user));
mainData.adopt(
  ['config', 'features', 'schemas'],
  start.then((answer) => ({ config: answer?.config, features: answer?.features, schemas: answer?.schemas })),
);
void start.then((answer) => {
  if (answer?.user) primeAuthQueries(queryClient, answer.user);
});

// Schema tokens, resource names and relation targets follow the loaded schemas.
let lastSchemas = mainData.getState().schemas;
mainData.subscribe(() => {
  const { schemas } = mainData.getState();
  if (schemas !== lastSchemas) {
    lastSchemas = schemas;
    setRecordTypes(schemas);
    void i18nProvider.setSchemas(schemas);
  }
});

// What belongs to the person is forgotten when they sign out; react-admin's access checks (`useCanAccess`, cached
// under ['auth']) are asked again whenever the session's user changes (sign-in, refreshed permissions).
let lastUserId = session.user?.id ?? null;
let lastUser = session.user;
session.subscribe(() => {
  const id = session.user?.id ?? null;
  if (lastUserId !== null && id !== lastUserId) mainData.resetPrivate();
  lastUserId = id;
  if (session.user !== lastUser) {
    lastUser = session.user;
    void queryClient.invalidateQueries({ queryKey: ['auth'] });
  }
});
