/** Texts and emails to the people of a list (docs/messages.md): the sent messages and one message's copies. */
import { Route } from 'react-router-dom';
import type { ClientFeature } from '../resources/registry';
import { lazyPage } from '../routing/lazyPage';

const MessagesPage = lazyPage('Messages', () => import('./MessagesPage'));
const MessageSendPage = lazyPage('MessageSend', () => import('./MessageSendPage'));
const UnsubscribePage = lazyPage('Unsubscribe', () => import('./UnsubscribePage'));

const messages: ClientFeature = {
  routes: [
    <Route key="messages" path="/messages" element={<MessagesPage />} />,
    <Route key="message" path="/messages/:id" element={<MessageSendPage />} />,
  ],
  publicRoutes: [<Route key="unsubscribe" path="/unsubscribe" element={<UnsubscribePage />} />],
};

export default messages;
