import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadSignedInShell } from './app/App';
import { dataProvider, mainData, queryClient, session } from './app/services';
import { prefetchOpenedList } from './records/prefetchList';

// The config and the session come with the start answer (app/startAnswer.ts, or their own requests without it);
// the app waits for what it needs. For a signed-in person the record types and the signed-in shell's code start as
// soon as the session is known (the server has the browser fetch the shell's scripts beside the first chunk).
// A list opened by its address starts its own code and its default view then too (records/prefetchList.ts). The
// app renders at once: the realtime connection starts with its first commit, so a screen shown a moment later hears
// the changes made from then on.
void mainData.ensure('config');
void session.check().then((user) => {
  if (!user) return;
  void mainData
    .ready()
    .then(() => prefetchOpenedList(window.location, mainData.getState().schemas, queryClient, dataProvider));
  void preloadSignedInShell();
});

// The offline service worker (production builds), once the page has loaded: it never competes with the first screen.
window.addEventListener(
  'load',
  () => void import('./offline/registerServiceWorker').then(({ registerServiceWorker }) => registerServiceWorker()),
  { once: true },
);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
