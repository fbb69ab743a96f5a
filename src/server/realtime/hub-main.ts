/**
 * `npm run hub`: the standalone realtime hub (docs/realtime.md "Standalone hub"). Settings: PUSHER_APP_ID,
 * PUSHER_APP_KEY and PUSHER_APP_SECRET (the same values the app processes are given), HUB_PORT (6001), HUB_HOST
 * (0.0.0.0), HUB_CLIENT_EVENTS (0), LOG_LEVEL (info).
 */
import { z } from 'zod';
import { startHubServer } from './standalone.js';

const settings = z
  .object({
    PUSHER_APP_ID: z.string().trim().min(1),
    PUSHER_APP_KEY: z.string().trim().min(1),
    PUSHER_APP_SECRET: z.string().trim().min(16, 'use at least 16 characters'),
    HUB_PORT: z.coerce.number().int().min(0).max(65535).optional().default(6001),
    HUB_HOST: z.string().optional().default('0.0.0.0'),
    HUB_CLIENT_EVENTS: z.enum(['1', '0', 'true', 'false', '']).optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional().default('info'),
  })
  .safeParse(process.env);
if (!settings.success) {
  console.error(`\nCannot start the hub: ${settings.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}\n`);
  process.exit(1);
}
const s = settings.data;
const { app, url } = await startHubServer({
  appId: s.PUSHER_APP_ID,
  key: s.PUSHER_APP_KEY,
  secret: s.PUSHER_APP_SECRET,
  port: s.HUB_PORT,
  host: s.HUB_HOST,
  clientEvents: s.HUB_CLIENT_EVENTS === '1' || s.HUB_CLIENT_EVENTS === 'true',
  logLevel: s.LOG_LEVEL,
});
console.log(`\n  The realtime hub is listening at ${url} (app id ${s.PUSHER_APP_ID}).\n  Give the app processes PUSHER_HOST, PUSHER_PORT, PUSHER_SCHEME, PUSHER_APP_ID, PUSHER_APP_KEY and PUSHER_APP_SECRET to publish here.\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
