/** The assistant's page, /assistant (the conversations, full page), loaded on demand; see resources/registry.tsx. */
import { Route } from 'react-router-dom';
import { lazyPage } from '../routing/lazyPage';

const AssistantPage = lazyPage('AssistantPage', () => import('./AssistantPage'));

export const assistantRoutes = [<Route key="assistant" path="/assistant" element={<AssistantPage />} />];
