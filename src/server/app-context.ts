import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { SendMail } from './auth/mailer.js';
import type { SessionStore } from './auth/sessions.js';
import type { LoginThrottle } from './auth/throttle.js';
import type { Config } from './config/config.js';
import type { Database } from './db/database.js';
import type { DB } from './db/schema.generated.js';
import type { AppEvents } from './events/app-events.js';
import type { FileStore } from './files/file-store.js';
import type { HeavyWork } from './http/heavy-work.js';
import type { Realtime } from './realtime/index.js';
import type { ReadCache } from './records/read-cache.js';
import type { RecordService } from './records/record-service.js';
import type { ResourceRegistry } from './records/registry.js';
import type { ResourceDefinition } from './records/resource.js';
import type { Lifecycle } from './system/lifecycle.js';
import type { TokenStore } from './tokens/token-store.js';
import type { UploadWorkers } from './workers/upload-workers.js';

/** What every feature's routes are given: settings, the database, and the shared services. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Kysely<DB>;
  records: RecordService;
  /** The in-process event bus: the data service and the job services emit after commit; features listen (events/app-events.ts). */
  events: AppEvents;
  resources: ResourceRegistry;
  sessions: SessionStore;
  /** Personal access tokens: made, listed, revoked, and signing in the requests that carry one (tokens/). */
  tokens: TokenStore;
  throttle: LoginThrottle;
  sendMail: SendMail;
  realtime: Realtime;
  /** Answers of the generic list and show reads until the next write; null when READ_CACHE is off. */
  readCache: ReadCache | null;
  /** Documents, attachments and export files: DATA_DIR/files or an S3-compatible bucket (files/file-store.ts). */
  files: FileStore;
  /** Whether the process is draining before it stops (SIGTERM), and what runs when it starts to (system/lifecycle.ts). */
  lifecycle: Lifecycle;
  /** Heavy requests and jobs at once, per person and in all (HEAVY_WORK_*): routes with `config.heavy` go through it. */
  heavyWork: HeavyWork;
  /** The threads that read uploads (CSV limits and first records, GeoJSON) off the request thread. */
  uploadWorkers: UploadWorkers;
}

/**
 * A server feature: a Fastify plugin registered with the app's context as its option (features-index.ts). It adds its
 * routes, its event listeners (`ctx.events.on`) and its background jobs itself.
 */
export type FeaturePlugin = FastifyPluginAsync<{ ctx: AppContext }>;

/** What a feature folder exports (its index.ts): its plugin, and the resources the generic routes serve for it. */
export interface Feature {
  plugin?: FeaturePlugin;
  resources?: readonly ResourceDefinition[];
}
