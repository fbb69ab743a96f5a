/** The API reference, an administrator's screen (docs/api.md). */
import { Route } from 'react-router-dom';
import type { ClientFeature } from '../resources/registry';
import { lazyPage } from '../routing/lazyPage';

const ApiReferencePage = lazyPage('API reference', () => import('./ApiReferencePage'));

const apiReference: ClientFeature = {
  routes: [<Route key="api-reference" path="/api-reference" element={<ApiReferencePage />} />],
};

export default apiReference;
