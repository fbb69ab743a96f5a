/**
 * The assistant's page, /assistant (the conversations, full page), loaded on demand; the chat itself opens in the side
 * panel, mounted beside the routes.
 */
import { Route } from 'react-router-dom';
import type { ClientFeature } from '../resources/registry';
import { lazyPage } from '../routing/lazyPage';
import { AssistantPanelHost } from './AssistantPanelHost';
import { assistantPanel } from './panelStore';

const AssistantPage = lazyPage('AssistantPage', () => import('./AssistantPage'));

const assistant: ClientFeature = {
  routes: [<Route key="assistant" path="/assistant" element={<AssistantPage />} />],
  globals: [<AssistantPanelHost key="assistant-panel" />],
  menuActions: { assistant: () => assistantPanel.open() },
};

export default assistant;
