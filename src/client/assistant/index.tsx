/** The assistant's page, /assistant (the conversations, full page), loaded on demand; the chat itself opens in the side panel. */
import { Route } from 'react-router-dom';
import type { ClientFeature } from '../resources/registry';
import { lazyPage } from '../routing/lazyPage';

const AssistantPage = lazyPage('AssistantPage', () => import('./AssistantPage'));

const assistant: ClientFeature = {
  routes: [<Route key="assistant" path="/assistant" element={<AssistantPage />} />],
};

export default assistant;
