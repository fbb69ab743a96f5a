import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadSignedInShell } from './app/App';
import { mainData, session } from './app/services';

// The config and the session come with the start answer (app/startAnswer.ts, or their own requests without it);
// the app waits for what it needs. For a signed-in person the record types and the signed-in shell's code start as
// soon as the session is known (the server has the browser fetch the shell's scripts beside the first chunk). The
// app renders at once: the realtime connection starts with its first commit, so a screen shown a moment later hears
// the changes made from then on.
void mainData.ensure('config');
void session.check().then((user) => {
  if (!user) return;
  void mainData.ready();
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
