import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { mainData, session } from './app/services';

// Start the public config load and the session check at once; the app waits for what it needs.
void mainData.ensure('config');
void session.check();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
