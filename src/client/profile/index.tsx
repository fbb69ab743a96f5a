/** The person's own settings (`/settings`). */
import { Route } from 'react-router-dom';
import type { ClientFeature } from '../resources/registry';
import { lazyPage } from '../routing/lazyPage';

const ProfilePage = lazyPage('ProfilePage', () => import('./ProfilePage'));

const profile: ClientFeature = {
  routes: [<Route key="settings" path="/settings" element={<ProfilePage />} />],
};

export default profile;
