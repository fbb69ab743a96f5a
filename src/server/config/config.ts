import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Cron } from 'croner';
import { z } from 'zod';
import { isTimeZone } from '../../common/relative-dates.js';

/**
 * Every setting is an environment variable, read once into one typed, validated object (DESIGN.md 10).
 * Each has a working default for the one-machine case; a bad value stops start-up naming the setting.
 */
const flag = (fallback: boolean) =>
  z
    .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
    .optional()
    .transform((value) =>
      value === undefined || value === '' ? fallback : ['1', 'true', 'yes', 'on'].includes(value),
    );
const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : undefined));
const integer = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).optional().default(fallback);

/**
 * APP_URL: the address people open the app at, as an origin (`https://map.example.org`, `http://10.0.0.5:8000`).
 * Links in mails and the Content-Security-Policy are made from it, never from the request's Host header.
 */
const publicAddress = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx) => {
    if (!value) return undefined;
    const problem = 'use the address people open the app at, such as https://map.example.org (http or https, no path)';
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    const plain = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
    if (!['http:', 'https:'].includes(url.protocol) || !plain) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return url.origin;
  });

/**
 * TRUST_PROXY: off, on (every hop's X-Forwarded-* is believed), or the proxies' addresses (`127.0.0.1,10.0.0.0/8`,
 * or proxy-addr's names `loopback`, `linklocal`, `uniquelocal`): only their forwarded headers are believed.
 */
const trustProxy = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx): boolean | string => {
    if (value === undefined || value === '' || ['0', 'false', 'no', 'off'].includes(value)) return false;
    if (['1', 'true', 'yes', 'on'].includes(value)) return true;
    const parts = value.split(',').map((part) => part.trim());
    if (parts.every((part) => /^(loopback|linklocal|uniquelocal|[0-9a-f.:]+(\/\d{1,3})?)$/i.test(part)))
      return parts.join(',');
    ctx.addIssue({ code: 'custom', message: "use 1, 0, or the proxies' addresses such as 127.0.0.1,10.0.0.0/8" });
    return z.NEVER;
  });

const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional().default('info');
export type LogLevel = z.infer<typeof logLevel>;

/** The settings `schema` reads from `env`, or a ConfigError naming each bad one. */
function parseSettings<T extends z.ZodType>(schema: T, env: NodeJS.ProcessEnv): z.infer<T> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new ConfigError(`Invalid setting ${problems}`);
  }
  return parsed.data;
}

const settingsSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).optional().default('production'),
  PORT: integer(8000, 0, 65535),
  HOST: z.string().optional().default('0.0.0.0'),
  APP_NAME: z.string().min(1).max(80).optional().default('Organizing Map'),
  APP_URL: publicAddress,
  LOGO_URL: z.string().optional().default('/logo.svg'),
  PRIVACY_URL: z.string().optional().default('/privacy.html'),
  TERMS_URL: z.string().optional().default('/terms.html'),
  SUPPORT_URL: z.string().optional().default('mailto:support@example.com'),
  APP_VERSION: optionalText,
  TIME_ZONE: z
    .string()
    .optional()
    .default('UTC')
    .refine(isTimeZone, 'use a time zone name such as America/Los_Angeles, or UTC'),
  DATA_DIR: z.string().optional().default('./data'),
  DATABASE_URL: optionalText,
  LOG_LEVEL: logLevel,
  ADMIN_EMAIL: z.string().email().optional().default('admin@example.com'),
  ADMIN_PASSWORD: optionalText,
  SEED_DEMO: flag(true),
  REGISTRATION_ENABLED: flag(false),
  SESSION_IDLE_MINUTES: integer(30, 1, 24 * 60),
  REMEMBER_DAYS: integer(30, 1, 365),
  INACTIVITY_TIMEOUT_MS: integer(1_800_000, 1_000, 24 * 3_600_000),
  INACTIVITY_COUNTDOWN_SECONDS: integer(60, 1, 3_600),
  LOGIN_MAX_ATTEMPTS: integer(5, 1, 1_000),
  LOGIN_MAX_ATTEMPTS_PER_ADDRESS: integer(20, 1, 100_000),
  LOGIN_ADDRESS_LOCKOUT_ATTEMPTS: integer(200, 1, 1_000_000),
  LOGIN_DECAY_SECONDS: integer(60, 1, 86_400),
  TOKEN_RATE_LIMIT: integer(120, 1, 1_000_000),
  BODY_LIMIT_BYTES: integer(1_048_576, 1_024, 50 * 1_048_576),
  UPLOAD_LIMIT_BYTES: integer(100 * 1_048_576, 1_024, 1_024 * 1_048_576),
  INPUT_MAX_ROWS: integer(1_000_000, 1, 100_000_000),
  INPUT_MAX_COLUMNS: integer(500, 1, 100_000),
  INPUT_MAX_CELL_BYTES: integer(65_536, 64, 16 * 1_048_576),
  HEAVY_WORK_PER_PERSON: integer(2, 1, 1_000),
  HEAVY_WORK_TOTAL: integer(4, 1, 10_000),
  UPLOAD_WORKER_MEMORY_MB: integer(128, 16, 16_384),
  UPLOAD_RETENTION_DAYS: integer(30, 1, 36_500),
  IMPORT_DEFER_INDEXES_ROWS: integer(10_000, 1, 1_000_000_000),
  JOB_STALE_SECONDS: integer(120, 10, 86_400),
  JOB_HOLD_BACK_MS: integer(3_000, 0, 60_000),
  SHUTDOWN_DRAIN_SECONDS: integer(10, 0, 600),
  TRUST_PROXY: trustProxy,
  BACKUP_CRON: z
    .string()
    .trim()
    .optional()
    .refine((value) => !value || cronIsValid(value), 'use cron syntax, such as "30 2 * * *" (every day at 02:30)')
    .transform((value) => (value ? value : undefined)),
  BACKUP_KEEP: integer(7, 1, 10_000),
  S3_BUCKET: optionalText,
  S3_ENDPOINT: z
    .string()
    .trim()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  S3_REGION: z.string().trim().optional().default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: z.enum(['1', '0', 'true', 'false', '']).optional(),
  S3_PREFIX: z
    .string()
    .trim()
    .regex(/^$|^[\w.-]+(\/[\w.-]+)*\/?$/, 'use letters, digits, dots, dashes and slashes, such as "organizing-map/"')
    .optional(),
  METRICS_TOKEN: z
    .string()
    .trim()
    .refine((value) => value === '' || value.length >= 16, 'use at least 16 characters')
    .optional()
    .transform((value) => (value ? value : undefined)),
  // Unset: on with the embedded database (this process is its only writer), off on PostgreSQL (others write too).
  READ_CACHE: z
    .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', 'auto', ''])
    .optional()
    .transform((value) =>
      value === undefined || value === '' || value === 'auto' ? undefined : ['1', 'true', 'yes', 'on'].includes(value),
    ),
  SMTP_URL: optionalText,
  MAIL_FROM: z.string().optional().default('Organizing Map <no-reply@example.com>'),
  APP_KEY: optionalText,
  PUSHER_APP_ID: optionalText,
  PUSHER_APP_KEY: optionalText,
  PUSHER_APP_SECRET: optionalText,
  PUSHER_HOST: optionalText,
  PUSHER_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  PUSHER_SCHEME: z.enum(['http', 'https']).optional(),
  PUSHER_CLUSTER: z.string().optional().default('mt1'),
  ANALYTICS_URL: optionalText,
  TILE_URL: z.string().optional().default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  TILE_ATTRIBUTION: z.string().optional().default('&copy; OpenStreetMap contributors'),
  ASSISTANT_BASE_URL: z
    .string()
    .trim()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  ASSISTANT_MODEL: optionalText,
  ASSISTANT_API_KEY: optionalText,
  ASSISTANT_DAILY_TOKENS: z
    .string()
    .trim()
    .regex(
      /^$|^(\d+|([a-z0-9*-]+[:=]\d+)(\s*,\s*[a-z0-9*-]+[:=]\d+)*)$/,
      'use a number, or role=tokens pairs such as "user=50000,leader=200000,*=100000"',
    )
    .optional(),
  ASSISTANT_MESSAGES_PER_MINUTE: integer(10, 1, 1_000),
  ASSISTANT_TIMEOUT_SECONDS: integer(120, 5, 3_600),
  AUTOMATION_MAX_DEPTH: integer(5, 1, 50),
  AUTOMATION_RUNS_PER_RECORD_PER_MINUTE: integer(10, 1, 10_000),
  WEBHOOK_ALLOW_NETWORKS: z
    .string()
    .trim()
    .regex(/^$|^[0-9a-f.:]+\/\d{1,3}(\s*,\s*[0-9a-f.:]+\/\d{1,3})*$/i, 'use networks such as 10.0.0.0/8,127.0.0.1/32')
    .optional()
    .transform((value) => (value ? value.split(',').map((part) => part.trim()) : [])),
  WEBHOOK_RETRY_SECONDS: z
    .string()
    .trim()
    .regex(/^\d+(\s*,\s*\d+)*$/, 'use seconds between attempts such as 5,300,1800')
    .optional()
    .default('5,300,1800,7200,18000,36000')
    .transform((value) => value.split(',').map(Number)),
  WEBHOOK_RETRY_HOURS: integer(24, 0, 24 * 14),
  WEBHOOK_PAUSE_AFTER: integer(15, 1, 10_000),
  WEBHOOK_TIMEOUT_SECONDS: integer(10, 1, 120),
  SMS_API_URL: z
    .string()
    .trim()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SMS_ACCOUNT_SID: optionalText,
  SMS_AUTH_TOKEN: optionalText,
  SMS_FROM: optionalText,
  MESSAGES_PER_MINUTE: integer(60, 1, 60_000),
  PUBLIC_FORM_SUBMISSIONS_PER_HOUR: integer(10, 1, 100_000),
  PUBLIC_FORM_SEARCHES_PER_HOUR: integer(300, 1, 1_000_000),
  QUIET_HOURS: z
    .string()
    .trim()
    .regex(
      /^$|^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d$/,
      'use a span such as 21:00-09:00, or nothing for none',
    )
    .optional()
    .default('21:00-09:00'),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  appName: string;
  /**
   * The public address (APP_URL, an origin without a trailing slash): links in mails, the realtime websocket's CSP
   * source. Default `http://localhost:PORT`, the one-machine case; `appUrlSet` says whether APP_URL gave it.
   */
  appUrl: string;
  appUrlSet: boolean;
  links: { logoUrl: string; privacyUrl: string; termsUrl: string; supportUrl: string };
  version: string;
  /** The organization's time zone (`TIME_ZONE`): where the days of relative date filters start. */
  timeZone: string;
  dataDir: string;
  databaseUrl: string | undefined;
  logLevel: string;
  admin: { email: string; password: string | undefined };
  seedDemo: boolean;
  registrationEnabled: boolean;
  session: {
    idleMinutes: number;
    rememberDays: number;
    inactivityTimeoutMs: number;
    inactivityCountdownSeconds: number;
  };
  /**
   * Failed sign-ins in `decaySeconds` (auth/throttle.ts): per account and address (`maxAttempts`, then refused); per
   * address (`maxAttemptsPerAddress`, then only a correct password of an account within its own limit signs in);
   * per address, everything refused (`addressLockoutAttempts`).
   */
  throttle: {
    maxAttempts: number;
    maxAttemptsPerAddress: number;
    addressLockoutAttempts: number;
    decaySeconds: number;
  };
  /** Requests one personal access token may make per minute (tokens/, docs/settings.md); past it 429. */
  tokenRateLimit: number;
  /**
   * What one input may hold (docs/settings.md "Input limits"), checked by every upload and import path while it
   * streams: a request body, a file, and a file's rows, columns and cells.
   */
  limits: InputLimits;
  /**
   * Heavy work at once (docs/settings.md): uploads read and parsed, previews, export downloads, and imports, exports and
   * bulk edits waiting or running; per person and in total. Beyond: 429 with Retry-After (http/heavy-work.ts).
   */
  heavyWork: { perPerson: number; total: number };
  /** The heap one upload-parsing worker thread may use (UPLOAD_WORKER_MEMORY_MB); past it the upload is refused. */
  uploadWorkerMemoryMb: number;
  /** Days an import's uploaded files are kept (UPLOAD_RETENTION_DAYS); the import's record stays. */
  uploadRetentionDays: number;
  /** Rows an import must bring to write before it leaves its table's sort and search indexes out (IMPORT_DEFER_INDEXES_ROWS). */
  importDeferIndexesRows: number;
  /** A running job with no heartbeat for this long is taken for stuck and retried by another worker (JOB_STALE_SECONDS). */
  jobStaleSeconds: number;
  /**
   * The embedded database: how long the job worker may hold back, before each turn of claims, while people's
   * requests keep the database busy (JOB_HOLD_BACK_MS; 0 never).
   */
  jobHoldBackMs: number;
  /** After SIGTERM, seconds the process still serves with /api/ready at 503 before it closes (SHUTDOWN_DRAIN_SECONDS). */
  shutdownDrainSeconds: number;
  /** Believe X-Forwarded-For/-Proto/-Host: from every hop (true) or from these addresses only (Fastify's trustProxy). */
  trustProxy: boolean | string;
  /**
   * Scheduled backups (docs/operations.md "Backups"): `cron` the times (BACKUP_CRON, in the server's time zone;
   * unset: none), `keep` how many scheduled archives stay (BACKUP_KEEP), in DATA_DIR/files/backups or the bucket.
   */
  backup: { cron: string | undefined; keep: number };
  /**
   * Files (documents, attachments, exports) in an S3-compatible bucket instead of DATA_DIR/files (S3_BUCKET set).
   * No keys: the SDK's own credential chain (instance role, AWS_* variables).
   */
  s3:
    | {
        bucket: string;
        endpoint: string | undefined;
        region: string;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
        forcePathStyle: boolean;
        prefix: string;
      }
    | undefined;
  /** The bearer token of GET /metrics; unset: metrics are off. */
  metricsToken: string | undefined;
  /** Keep sessions and list/show answers in memory until the next write (READ_CACHE); `undefined`: on. */
  readCache: boolean | undefined;
  mail: { smtpUrl: string | undefined; from: string };
  /** Secret for signing (realtime channel auth of the embedded hub). Generated per data folder when unset. */
  appKey: string | undefined;
  /** The Pusher-protocol service. `external` is true when PUSHER_HOST/APP_ID are set: publish over its HTTP API. */
  pusher: {
    appId: string;
    key: string;
    secret: string | undefined;
    host: string | undefined;
    port: number | undefined;
    scheme: 'http' | 'https' | undefined;
    cluster: string;
    external: boolean;
  };
  analyticsUrl: string | undefined;
  tiles: { url: string; attribution: string };
  /** Automations (docs/automations.md): how deep automations may set off one another, and runs per record per minute. */
  automations: { maxDepth: number; runsPerRecordPerMinute: number };
  /**
   * Outgoing webhooks (docs/webhooks.md): private networks let through (else refused: docs/security.md), the seconds
   * between attempts (the last repeated), for how long a message is retried, failed attempts in a row that pause a
   * webhook, and each attempt's time limit.
   */
  webhooks: {
    allowNetworks: string[];
    retrySeconds: number[];
    retryHours: number;
    pauseAfter: number;
    timeoutSeconds: number;
  };
  /**
   * Texts and emails to people (docs/messages.md): the Twilio-compatible SMS endpoint (`sms` null without one: texts are
   * kept as not sent), messages a minute per channel, and the quiet hours (minutes after midnight in the recipient's
   * time zone; null for none).
   */
  messages: {
    sms: { apiUrl: string; accountSid: string; authToken: string; from: string } | null;
    perMinute: number;
    quietHours: { start: number; end: number } | null;
  };
  /**
   * Public forms (docs/public-forms.md): submissions (and confirmation attempts) one address may make per hour, and
   * searches of a link field's names (typed letter by letter, so more).
   */
  publicForms: { perAddressPerHour: number; searchesPerHour: number };
  /**
   * The assistant (docs/assistant.md): an OpenAI-compatible chat completions endpoint, or the built-in assistant when
   * `baseUrl` is unset. `dailyTokens`: the model tokens a person may use per day, by role slug (`*` for the others;
   * absent: no limit).
   */
  assistant: {
    baseUrl: string | undefined;
    model: string | undefined;
    apiKey: string | undefined;
    dailyTokens: Record<string, number>;
    messagesPerMinute: number;
    timeoutSeconds: number;
  };
}

/** The input limits (INPUT_MAX_*, UPLOAD_LIMIT_BYTES, BODY_LIMIT_BYTES): one object, read at each request. */
export interface InputLimits {
  /** The largest JSON (or form) body (BODY_LIMIT_BYTES). */
  bodyBytes: number;
  /** The largest uploaded file (UPLOAD_LIMIT_BYTES). */
  uploadBytes: number;
  /** Data rows of a file (INPUT_MAX_ROWS): CSV records after the header, GeoJSON features. */
  rows: number;
  /** Columns of a file (INPUT_MAX_COLUMNS): CSV fields of a record, an importer's columns, a GeoJSON feature's properties. */
  columns: number;
  /** Bytes of one cell (INPUT_MAX_CELL_BYTES): a CSV field, a GeoJSON property's value. */
  cellBytes: number;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const s = parseSettings(settingsSchema, env);
  const external = Boolean(s.PUSHER_APP_ID && s.PUSHER_HOST);
  if (external && !(s.PUSHER_APP_KEY && s.PUSHER_APP_SECRET)) {
    throw new ConfigError(
      'Invalid setting PUSHER_APP_KEY/PUSHER_APP_SECRET: both are needed when PUSHER_APP_ID and PUSHER_HOST are set',
    );
  }
  if (Boolean(s.S3_ACCESS_KEY_ID) !== Boolean(s.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(
      'Invalid setting S3_ACCESS_KEY_ID/S3_SECRET_ACCESS_KEY: give both, or neither to use the AWS credential chain',
    );
  }
  if (s.S3_ENDPOINT && !s.S3_BUCKET)
    throw new ConfigError('Invalid setting S3_BUCKET: name the bucket to keep files in at S3_ENDPOINT');
  if (s.SMS_API_URL && !(s.SMS_ACCOUNT_SID && s.SMS_AUTH_TOKEN && s.SMS_FROM))
    throw new ConfigError(
      'Invalid setting SMS_ACCOUNT_SID/SMS_AUTH_TOKEN/SMS_FROM: all three are needed to send texts through SMS_API_URL',
    );
  if (s.ASSISTANT_BASE_URL && !s.ASSISTANT_MODEL) {
    throw new ConfigError(
      'Invalid setting ASSISTANT_MODEL: name the model to use at ASSISTANT_BASE_URL (e.g. llama3.1 for Ollama)',
    );
  }
  return {
    env: s.NODE_ENV,
    port: s.PORT,
    host: s.HOST,
    appName: s.APP_NAME,
    appUrl: s.APP_URL ?? `http://localhost:${s.PORT}`,
    appUrlSet: s.APP_URL !== undefined,
    links: { logoUrl: s.LOGO_URL, privacyUrl: s.PRIVACY_URL, termsUrl: s.TERMS_URL, supportUrl: s.SUPPORT_URL },
    version: s.APP_VERSION ?? process.env.npm_package_version ?? '0.0.0',
    timeZone: s.TIME_ZONE,
    dataDir: path.resolve(s.DATA_DIR),
    databaseUrl: s.DATABASE_URL,
    logLevel: s.LOG_LEVEL,
    admin: { email: s.ADMIN_EMAIL, password: s.ADMIN_PASSWORD },
    seedDemo: s.SEED_DEMO,
    registrationEnabled: s.REGISTRATION_ENABLED,
    session: {
      idleMinutes: s.SESSION_IDLE_MINUTES,
      rememberDays: s.REMEMBER_DAYS,
      inactivityTimeoutMs: s.INACTIVITY_TIMEOUT_MS,
      inactivityCountdownSeconds: s.INACTIVITY_COUNTDOWN_SECONDS,
    },
    throttle: {
      maxAttempts: s.LOGIN_MAX_ATTEMPTS,
      maxAttemptsPerAddress: s.LOGIN_MAX_ATTEMPTS_PER_ADDRESS,
      addressLockoutAttempts: Math.max(s.LOGIN_ADDRESS_LOCKOUT_ATTEMPTS, s.LOGIN_MAX_ATTEMPTS_PER_ADDRESS),
      decaySeconds: s.LOGIN_DECAY_SECONDS,
    },
    tokenRateLimit: s.TOKEN_RATE_LIMIT,
    limits: {
      bodyBytes: s.BODY_LIMIT_BYTES,
      uploadBytes: s.UPLOAD_LIMIT_BYTES,
      rows: s.INPUT_MAX_ROWS,
      columns: s.INPUT_MAX_COLUMNS,
      cellBytes: s.INPUT_MAX_CELL_BYTES,
    },
    heavyWork: { perPerson: s.HEAVY_WORK_PER_PERSON, total: s.HEAVY_WORK_TOTAL },
    uploadWorkerMemoryMb: s.UPLOAD_WORKER_MEMORY_MB,
    uploadRetentionDays: s.UPLOAD_RETENTION_DAYS,
    importDeferIndexesRows: s.IMPORT_DEFER_INDEXES_ROWS,
    jobStaleSeconds: s.JOB_STALE_SECONDS,
    jobHoldBackMs: s.JOB_HOLD_BACK_MS,
    shutdownDrainSeconds: s.SHUTDOWN_DRAIN_SECONDS,
    trustProxy: s.TRUST_PROXY,
    backup: { cron: s.BACKUP_CRON, keep: s.BACKUP_KEEP },
    metricsToken: s.METRICS_TOKEN,
    s3: s.S3_BUCKET
      ? {
          bucket: s.S3_BUCKET,
          endpoint: s.S3_ENDPOINT,
          region: s.S3_REGION,
          accessKeyId: s.S3_ACCESS_KEY_ID,
          secretAccessKey: s.S3_SECRET_ACCESS_KEY,
          // MinIO, Ceph and s3rver serve buckets by path; AWS by host name.
          forcePathStyle: s.S3_FORCE_PATH_STYLE
            ? ['1', 'true'].includes(s.S3_FORCE_PATH_STYLE)
            : Boolean(s.S3_ENDPOINT),
          prefix: s.S3_PREFIX ? s.S3_PREFIX.replace(/\/?$/, '/') : '',
        }
      : undefined,
    readCache: s.READ_CACHE,
    mail: { smtpUrl: s.SMTP_URL, from: s.MAIL_FROM },
    appKey: s.APP_KEY,
    pusher: {
      appId: s.PUSHER_APP_ID ?? 'organizing-map',
      key: s.PUSHER_APP_KEY ?? 'organizing-map-key',
      secret: s.PUSHER_APP_SECRET,
      host: s.PUSHER_HOST,
      port: s.PUSHER_PORT,
      scheme: s.PUSHER_SCHEME,
      cluster: s.PUSHER_CLUSTER,
      external,
    },
    analyticsUrl: s.ANALYTICS_URL,
    tiles: { url: s.TILE_URL, attribution: s.TILE_ATTRIBUTION },
    automations: {
      maxDepth: s.AUTOMATION_MAX_DEPTH,
      runsPerRecordPerMinute: s.AUTOMATION_RUNS_PER_RECORD_PER_MINUTE,
    },
    webhooks: {
      allowNetworks: s.WEBHOOK_ALLOW_NETWORKS,
      retrySeconds: s.WEBHOOK_RETRY_SECONDS,
      retryHours: s.WEBHOOK_RETRY_HOURS,
      pauseAfter: s.WEBHOOK_PAUSE_AFTER,
      timeoutSeconds: s.WEBHOOK_TIMEOUT_SECONDS,
    },
    messages: {
      sms:
        s.SMS_API_URL && s.SMS_ACCOUNT_SID && s.SMS_AUTH_TOKEN && s.SMS_FROM
          ? { apiUrl: s.SMS_API_URL, accountSid: s.SMS_ACCOUNT_SID, authToken: s.SMS_AUTH_TOKEN, from: s.SMS_FROM }
          : null,
      perMinute: s.MESSAGES_PER_MINUTE,
      quietHours: parseQuietHours(s.QUIET_HOURS),
    },
    publicForms: {
      perAddressPerHour: s.PUBLIC_FORM_SUBMISSIONS_PER_HOUR,
      searchesPerHour: s.PUBLIC_FORM_SEARCHES_PER_HOUR,
    },
    assistant: {
      baseUrl: s.ASSISTANT_BASE_URL,
      model: s.ASSISTANT_MODEL,
      apiKey: s.ASSISTANT_API_KEY,
      dailyTokens: parseDailyTokens(s.ASSISTANT_DAILY_TOKENS),
      messagesPerMinute: s.ASSISTANT_MESSAGES_PER_MINUTE,
      timeoutSeconds: s.ASSISTANT_TIMEOUT_SECONDS,
    },
  };
}

/** `21:00-09:00` as minutes after midnight; nothing for none. */
function parseQuietHours(text: string): { start: number; end: number } | null {
  if (!text) return null;
  const [start, end] = text.split('-').map((part) => {
    const [hours, minutes] = part.split(':').map(Number);
    return hours! * 60 + minutes!;
  });
  return start === end ? null : { start: start!, end: end! };
}

function cronIsValid(pattern: string): boolean {
  try {
    new Cron(pattern, { paused: true }).stop();
    return true;
  } catch {
    return false;
  }
}

/** `50000` (everyone) or `user=50000,leader=200000,*=100000` (by role slug; `*` for the roles not named). */
function parseDailyTokens(text: string | undefined): Record<string, number> {
  if (!text) return {};
  if (/^\d+$/.test(text)) return { '*': Number(text) };
  return Object.fromEntries(
    text.split(',').map((pair) => {
      const [role, tokens] = pair.trim().split(/[:=]/);
      return [role, Number(tokens)];
    }),
  );
}

export function randomSecret(): string {
  return randomBytes(32).toString('hex');
}

const hubSettingsSchema = z.object({
  PUSHER_APP_ID: z.string().trim().min(1),
  PUSHER_APP_KEY: z.string().trim().min(1),
  PUSHER_APP_SECRET: z.string().trim().min(16, 'use at least 16 characters'),
  HUB_PORT: integer(6001, 0, 65535),
  HUB_HOST: z.string().optional().default('0.0.0.0'),
  HUB_CLIENT_EVENTS: flag(false),
  LOG_LEVEL: logLevel,
});

/** The standalone hub's settings (`npm run hub`, docs/realtime.md): the app's PUSHER_* values, and where it listens. */
export interface HubConfig {
  appId: string;
  key: string;
  secret: string;
  port: number;
  host: string;
  clientEvents: boolean;
  logLevel: LogLevel;
}

export function loadHubConfig(env: NodeJS.ProcessEnv = process.env): HubConfig {
  const s = parseSettings(hubSettingsSchema, env);
  return {
    appId: s.PUSHER_APP_ID,
    key: s.PUSHER_APP_KEY,
    secret: s.PUSHER_APP_SECRET,
    port: s.HUB_PORT,
    host: s.HUB_HOST,
    clientEvents: s.HUB_CLIENT_EVENTS,
    logLevel: s.LOG_LEVEL,
  };
}
