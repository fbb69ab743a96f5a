import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { KeptTurfs } from './access/kept-turfs.js';
import { AccessPolicy } from './access/policy.js';
import { collectOpenApi } from './api-docs/openapi.js';
import type { AppContext } from './app-context.js';
import { registerCsrf } from './auth/csrf.js';
import { createMailer, type SendMail } from './auth/mailer.js';
import { registerAuthRoutes } from './auth/routes.js';
import { SessionStore } from './auth/sessions.js';
import { LoginThrottle } from './auth/throttle.js';
import type { Config } from './config/config.js';
import type { Database } from './db/database.js';
import { readWriteCounters } from './db/write-tracking.js';
import { AppEvents } from './events/app-events.js';
import { features, resourceDefinitions } from './features-index.js';
import { openFileStore } from './files/file-store.js';
import { applyContracts } from './http/contracts.js';
import { installErrorHandler } from './http/error-handler.js';
import { HttpError } from './http/errors.js';
import { HeavyWork, registerHeavyWork } from './http/heavy-work.js';
import { parseQueryString } from './http/query-string.js';
import { requestForLog } from './http/request-log.js';
import { collectRoutes, decideResourcesWith, requireSignIn } from './http/route-permissions.js';
import { drainUnreadBodies } from './http/unread-body.js';
import { broadcastAppEvents } from './realtime/broadcast.js';
import { registerRealtime } from './realtime/index.js';
import { KeptNames } from './records/kept-names.js';
import { KeptTotals } from './records/kept-totals.js';
import { ReadCache } from './records/read-cache.js';
import { RecordService } from './records/record-service.js';
import { ResourceRegistry } from './records/registry.js';
import { registerResourceRoutes } from './records/routes.js';
import { schemaStore } from './schemas/schema-store.js';
import { Lifecycle, registerDrain } from './system/lifecycle.js';
import { registerMetrics } from './system/metrics.js';
import { registerSecurityHeaders } from './system/security-headers.js';
import { registerStaticClient } from './system/static-client.js';
import { registerRequestAuth } from './tokens/token-requests.js';
import { TokenStore } from './tokens/token-store.js';
import { UploadWorkers } from './workers/upload-workers.js';

export interface BuildOptions {
  config: Config;
  database: Database;
  /** Replaces the mailer (tests read the reset links from here). */
  sendMail?: SendMail;
  /** Logger override (tests pass false to keep output quiet). */
  logger?: boolean | object;
}

/** Builds the whole server: one Fastify instance serving the client, /api and the realtime websocket. */
export async function buildApp(options: BuildOptions): Promise<{ app: FastifyInstance; ctx: AppContext }> {
  const { config, database } = options;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            ...(typeof options.logger === 'object' ? options.logger : {}),
            serializers: { req: requestForLog },
          },
    // A line per request only at LOG_LEVEL=debug or trace: at info a busy day's requests would bury the start-up
    // lines (the first administrator's password) and every warning; failures are logged at any level.
    logController: new LogController({ disableRequestLogging: !['debug', 'trace'].includes(config.logLevel) }),
    bodyLimit: config.limits.bodyBytes,
    trustProxy: config.trustProxy,
    genReqId: (request) => {
      const sent = request.headers['x-request-id'];
      return typeof sent === 'string' && /^[\w-]{1,64}$/.test(sent) ? sent : randomUUID();
    },
    routerOptions: { querystringParser: parseQueryString },
    // No time limit on plugins and onReady hooks: the first start on a large table builds its indexes there
    // (schemas/schema-routes.ts), which takes minutes, not the 10 s Fastify allows by default.
    pluginTimeout: 0,
    // A request that still arrives while the app closes (after the drain, system/lifecycle.ts) is served, not refused
    // with 503: the database closes only once the server has finished every request.
    return503OnClosing: false,
  });
  // Every route's contract is zod (http/contracts.ts): requests are validated and answers serialised from it, and
  // the OpenAPI document is generated from it (api-docs/).
  applyContracts(app);
  await collectOpenApi(app, config);
  const lifecycle = new Lifecycle();
  registerDrain(app, lifecycle);
  collectRoutes(app);
  installErrorHandler(app, config);
  drainUnreadBodies(app);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await registerSecurityHeaders(app, config);
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);
  await app.register(fastifyMultipart, { limits: { fileSize: config.limits.uploadBytes, files: 20, fields: 50 } });

  const resources = new ResourceRegistry();
  // On unless READ_CACHE=0. With the embedded database this process is its only writer; on PostgreSQL other processes
  // write too: every write then moves counters in the database, which each kept answer is checked against.
  const cacheReads = config.readCache ?? true;
  if (cacheReads && database.kind === 'postgres') database.writes.share(() => readWriteCounters(database.db));
  const realtime = await registerRealtime(app, { config, database });
  const logError = (error: unknown, message: string) => app.log.error({ err: error }, message);
  const events = new AppEvents(logError);
  const schemas = schemaStore(database.db);
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    resources,
    records: new RecordService({
      db: database.db,
      events,
      // Record types' names and form logic come from their schemas (schemas/schema-store.ts).
      nameOf: (def, db) => schemas.nameOf(def, db),
      formLogic: (def, values, db) => schemas.logic(def.type, values, db, (message) => app.log.warn(message)),
      targetOf: (references) => resources.target(references),
      // Names of linked records in memory only where this process is the only writer (tables counted one by one).
      keptNames: cacheReads && !database.writes.isShared ? new KeptNames(database.writes) : null,
      // Totals of lists wherever reads are cached: their stamp includes the shared write counters on PostgreSQL.
      keptTotals: cacheReads ? new KeptTotals(database.writes) : null,
      logError,
      access: (records) => new AccessPolicy(records, resources, KeptTurfs.of(database)),
      timeZone: config.timeZone,
      keptRollups: async (db) => (await schemas.snapshot(db)).keptRollups(),
    }),
    events,
    sessions: new SessionStore(database.db, config, { writes: cacheReads ? database.writes : null }),
    tokens: new TokenStore(database.db, resources),
    throttle: new LoginThrottle(database.db, config),
    sendMail: options.sendMail ?? createMailer(config, app.log),
    realtime,
    readCache: cacheReads ? new ReadCache(database.writes) : null,
    files: await openFileStore(config),
    lifecycle,
    heavyWork: new HeavyWork(database.db, config),
    uploadWorkers: new UploadWorkers(() => config.uploadWorkerMemoryMb),
  };
  // Record types live in an in-memory cache of their own: when it is cleared, answers built with it are stale too;
  // a change in another server process clears it here (and the other way round).
  schemas.onInvalidate(() => database.writes.bump());
  const stopSharingSchemas = await schemas.shareWith(database);

  // A declared `{resource, action}` is decided as the record service decides it (with its message).
  decideResourcesWith(app, (user, name, action) => {
    const def = resources.get(name);
    if (!def) return 'unknown';
    try {
      ctx.records.authorize(user, def, action);
      return 'allowed';
    } catch (error) {
      if (error instanceof HttpError) return error;
      throw error;
    }
  });

  registerMetrics(app, ctx);
  app.decorateRequest('user', null);
  app.decorateRequest('session', null);
  await registerRequestAuth(app, { sessions: ctx.sessions, tokens: ctx.tokens, perMinute: config.tokenRateLimit });
  registerCsrf(app, ctx.sessions);
  requireSignIn(app);
  registerHeavyWork(app, ctx.heavyWork);

  for (const def of resourceDefinitions) resources.add(def);
  registerAuthRoutes(app, ctx);
  for (const feature of features) if (feature.plugin) await app.register(feature.plugin, { ctx });
  for (const def of resources.all()) registerResourceRoutes(app, ctx, def);
  // Last on the bus: every feature's listener (caches, indexes) has run before a browser hears of a change.
  broadcastAppEvents(ctx);
  await registerStaticClient(app);

  app.addHook('onClose', async () => {
    stopSharingSchemas();
    // What the last writes told the listeners is delivered before the database and the hub go.
    await events.idle();
    await ctx.sessions.flush();
    await realtime.close();
    await ctx.uploadWorkers.close();
  });
  return { app, ctx };
}
