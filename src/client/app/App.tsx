import CssBaseline from '@mui/material/CssBaseline';
import { type ReactNode, useMemo, useRef } from 'react';
import { AdminContext, CoreAdminUI, CustomRoutes } from 'react-admin';
import { BrowserRouter, Route } from 'react-router-dom';
import { useLocationTrail } from '../accessDenied/locationTrail';
// The sign-in page is in the first chunk: it is the first screen of anyone not signed in.
import LoginPage from '../auth/LoginPage';
import { LoadingScreen } from '../layout/LoadingScreen';
import { RedirectToNotFound } from '../notFound/RedirectToNotFound';
import { RequireAuth } from '../routing/guards';
import { lazyPage } from '../routing/lazyPage';
import { theme } from '../theme/theme';
import { AppError } from './AppError';
import { FEATURES } from './features';
import { Globals } from './Globals';
import { useConfig, useMainData, useSession } from './hooks';
import { createResourceChild, declaredDirectly, resourceElements } from './resourceChild';
import { authProvider, dataProvider, i18nProvider, queryClient } from './services';

const AppLayout = lazyPage<{ children: ReactNode }>('AppLayout', () => import('../layout/AppLayout'), {
  fullHeight: true,
});
const Dashboard = lazyPage<any>('Dashboard', () => import('../dashboard/Dashboard'));
const PasswordResetPage = lazyPage('PasswordResetPage', () => import('../auth/PasswordResetPage'), {
  fullHeight: true,
});
const PasswordUpdatePage = lazyPage('PasswordUpdatePage', () => import('../auth/PasswordUpdatePage'), {
  fullHeight: true,
});
const AccessDeniedPage = lazyPage('AccessDeniedPage', () => import('../accessDenied/AccessDeniedPage'));
const NotFoundPage = lazyPage('NotFoundPage', () => import('../notFound/NotFoundPage'), { fullHeight: true });

/** The signed-in shell's code (layout and dashboard, one chunk), started as soon as the session is known. */
export function preloadSignedInShell(): Promise<unknown> {
  return Promise.all([AppLayout.preload(), Dashboard.preload()]);
}

/** The default layout, for guarded routes only. */
function GuardedLayout({ children }: { children: ReactNode }) {
  useLocationTrail();
  return (
    <RequireAuth>
      <AppLayout>{children}</AppLayout>
    </RequireAuth>
  );
}

function Spinner() {
  return <LoadingScreen />;
}

export function App() {
  const { loaded, schemas } = useMainData();
  const { user } = useSession();
  const config = useConfig();
  // A new route table only when the set of record types changes.
  const schemaKey = schemas
    .map((schema) => schema.type)
    .sort()
    .join(',');
  // Signed in with config, features and record types loaded at the app's first render (the start answer brought
  // them): the resources are declared directly, so react-admin builds its routes in its first render, without its
  // loading page. Otherwise (signed out at the start, and after any sign-out) the run-time function child waits for
  // them, as it does through a sign-in.
  const known = user !== null && loaded.config && loaded.features && loaded.schemas;
  const knownSinceStart = useRef(known);
  if (!known) knownSinceStart.current = false;
  const direct = known && knownSinceStart.current;
  const resources = useMemo(() => {
    if (!direct) return createResourceChild();
    declaredDirectly();
    return resourceElements(schemas);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [direct, schemaKey]);

  if (!loaded.config) return <LoadingScreen />;

  return (
    <BrowserRouter>
      {/* What react-admin's <Admin> is made of, minus its default login page and layout (kept out of the bundle). */}
      <AdminContext
        authProvider={authProvider}
        dataProvider={dataProvider}
        i18nProvider={i18nProvider}
        queryClient={queryClient}
        theme={theme}
      >
        <CssBaseline enableColorScheme>
          <CoreAdminUI
            title={config.name}
            layout={GuardedLayout}
            dashboard={Dashboard}
            catchAll={RedirectToNotFound}
            accessDenied={AccessDeniedPage}
            loading={Spinner}
            error={AppError}
            loginPage={false}
            authCallbackPage={false}
            disableTelemetry
          >
            <CustomRoutes noLayout>
              <Route path="/login" element={<LoginPage />} />
              <Route path="/password/reset" element={<PasswordResetPage />} />
              <Route path="/password/update" element={<PasswordUpdatePage />} />
              <Route path="/404" element={<NotFoundPage />} />
              {FEATURES.flatMap((feature) => feature.publicRoutes ?? [])}
            </CustomRoutes>
            {resources}
          </CoreAdminUI>
          <Globals />
        </CssBaseline>
      </AdminContext>
    </BrowserRouter>
  );
}
