/** Automations and webhooks, an administrator's screens (docs/automations.md). */
import { Route } from 'react-router-dom';
import type { ClientFeature } from '../resources/registry';
import { lazyPage } from '../routing/lazyPage';

const AutomationsPage = lazyPage('Automations', () => import('./AutomationsPage'));
const AutomationPage = lazyPage('Automation', () => import('./AutomationPage'));
const WebhooksPage = lazyPage('Webhooks', () => import('./WebhooksPage'));

const automations: ClientFeature = {
  routes: [
    <Route key="automations" path="/automations" element={<AutomationsPage />} />,
    <Route key="automation" path="/automations/:id" element={<AutomationPage />} />,
    <Route key="webhooks" path="/webhooks" element={<WebhooksPage />} />,
  ],
};

export default automations;
