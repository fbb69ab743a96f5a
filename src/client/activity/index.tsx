/** The activity feed (`/actions`, SPEC section 2), loaded on demand. */
import { Route } from 'react-router-dom';
import type { ClientFeature } from '../resources/registry';
import { lazyPage } from '../routing/lazyPage';

const ActivityPage = lazyPage('ActivityPage', () => import('./ActivityPage'));

const activity: ClientFeature = {
  routes: [<Route key="actions" path="/actions" element={<ActivityPage />} />],
};

export default activity;
