/** Offline work (docs/offline.md): the sites kept on this device. The outbox and indicator live beside it. */
import { Route } from 'react-router-dom';
import type { ClientFeature } from '../resources/registry';
import { lazyPage } from '../routing/lazyPage';
import { OfflineIndicator } from './OfflineIndicator';
import { OFFLINE_SITES_PATH } from './OutboxPanel';

const OfflineSitesPage = lazyPage('OfflineSitesPage', () => import('./OfflineSitesPage'));

const offlineWork: ClientFeature = {
  toolbarItems: [<OfflineIndicator key="offline-indicator" />],
  routes: [<Route key="offline-sites" path={OFFLINE_SITES_PATH} element={<OfflineSitesPage />} />],
};

export default offlineWork;
