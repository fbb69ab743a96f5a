/** Call lists, the phone bank (docs/conversations.md "Call lists"): the lists (`/call-lists`) and working one. */
import { Route } from 'react-router-dom';
import type { ClientFeature } from '../resources/registry';
import { lazyPage } from '../routing/lazyPage';

const CallListsPage = lazyPage('CallLists', () => import('./CallListsPage'));
const CallListWorkPage = lazyPage('CallListWork', () => import('./CallListWorkPage'));

const callLists: ClientFeature = {
  routes: [
    <Route key="call-lists" path="/call-lists" element={<CallListsPage />} />,
    <Route key="call-list" path="/call-lists/:id" element={<CallListWorkPage />} />,
  ],
};

export default callLists;
