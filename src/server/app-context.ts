import type { Kysely } from 'kysely';
import type { SendMail } from './auth/mailer.js';
import type { SessionStore } from './auth/sessions.js';
import type { LoginThrottle } from './auth/throttle.js';
import type { Config } from './config/config.js';
import type { Database } from './db/database.js';
import type { ReadCache } from './records/read-cache.js';
import type { RecordService } from './records/record-service.js';
import type { ResourceRegistry } from './records/registry.js';
import type { Realtime } from './realtime/index.js';

/** What every feature's routes are given: settings, the database, and the shared services. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Kysely<any>;
  records: RecordService;
  resources: ResourceRegistry;
  sessions: SessionStore;
  throttle: LoginThrottle;
  sendMail: SendMail;
  realtime: Realtime;
  /** Answers of the generic list and show reads until the next write; null when READ_CACHE is off. */
  readCache: ReadCache | null;
}
