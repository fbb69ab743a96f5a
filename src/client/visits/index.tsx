/** Site visits: the phone form that logs one (the visits' create screen); the site page and the map link to it. */
import type { ClientFeature } from '../resources/registry';
import { lazyPage } from '../routing/lazyPage';

const LogVisitPage = lazyPage('LogVisit', () => import('./LogVisitPage'));

const visits: ClientFeature = {
  resources: { visits: { create: LogVisitPage } },
};

export default visits;
