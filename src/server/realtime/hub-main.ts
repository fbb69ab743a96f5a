/**
 * `npm run hub`: the standalone realtime hub (docs/realtime.md "Standalone hub"). Settings (config.ts
 * `loadHubConfig`): PUSHER_APP_ID, PUSHER_APP_KEY and PUSHER_APP_SECRET (the same values the app processes are
 * given), HUB_PORT (6001), HUB_HOST (0.0.0.0), HUB_CLIENT_EVENTS (0), LOG_LEVEL (info).
 */
import { ConfigError, type HubConfig, loadHubConfig } from '../config/config.js';
import { startHubServer } from './standalone.js';

let settings: HubConfig;
try {
  settings = loadHubConfig();
} catch (error) {
  console.error(`\nCannot start the hub: ${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exit(1);
}
const { app, url } = await startHubServer(settings);
console.log(
  `\n  The realtime hub is listening at ${url} (app id ${settings.appId}).\n  Give the app processes PUSHER_HOST, PUSHER_PORT, PUSHER_SCHEME, PUSHER_APP_ID, PUSHER_APP_KEY and PUSHER_APP_SECRET to publish here.\n`,
);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
