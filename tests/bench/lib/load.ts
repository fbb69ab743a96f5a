import http from 'node:http';
import { performance } from 'node:perf_hooks';

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  /** Closed loop: this many workers, each sending its next request when the previous answer is complete. */
  concurrency?: number;
  /** Requests during the warm-up are sent but not counted. */
  warmupMs?: number;
  /** How long to measure after the warm-up. */
  durationMs?: number;
  expectStatus?: number;
  /** Per-request timeout. */
  timeoutMs?: number;
}

export interface LoadResult {
  /** Requests started in the measured window (and finished). */
  requests: number;
  /** Answers other than `expectStatus`, plus network errors and timeouts, in the measured window. */
  errors: number;
  /** Every answer, warm-up included (to divide the server's CPU time by). */
  allRequests: number;
  /** First few error descriptions, for the report. */
  errorSamples: string[];
  /** From the end of the warm-up to the last measured answer. */
  seconds: number;
  requestsPerSecond: number;
  latencyMs: { mean: number; p50: number; p95: number; p99: number; max: number };
}

/** One request of a scenario: a path on the server under test and the status that counts as a success. */
export interface LoadRequest {
  /** Groups the request in the per-kind figures (`byLabel`), e.g. `list sites`. */
  label: string;
  method?: string;
  /** Path and query, e.g. `/api/sites?page=2`. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  expectStatus?: number;
}

export interface ScenarioOptions {
  baseUrl: string;
  /** Closed loop: this many workers, each sending its next request when the previous answer is complete. */
  concurrency: number;
  /** Requests during the warm-up are sent but not counted. */
  warmupMs?: number;
  /** How long to measure after the warm-up. */
  durationMs?: number;
  /** Per-request timeout. */
  timeoutMs?: number;
  /** The next request of worker `worker` (0 to concurrency - 1). */
  next: (worker: number) => LoadRequest;
}

export interface LabelResult {
  requests: number;
  errors: number;
  p50: number;
  p95: number;
}

export interface ScenarioResult extends LoadResult {
  /** Answers of 500 and above in the measured window (counted in `errors` too). */
  serverErrors: number;
  /** Errors (of any status) during the warm-up, which `errors` leaves out. */
  warmupErrors: number;
  byLabel: Map<string, LabelResult>;
}

const percentile = (sorted: Float64Array, q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : Number.NaN;

/**
 * A small closed-loop load generator on node:http (keep-alive agent, one socket per worker). Each worker asks
 * `next` for its request, sends it, and records its latency when it started after the warm-up: from `request()`
 * to the last body byte. A success is the request's `expectStatus` (200 unless told); anything else, a network
 * error or a timeout is an error.
 */
export async function runScenario(options: ScenarioOptions): Promise<ScenarioResult> {
  const { concurrency } = options;
  const warmupMs = options.warmupMs ?? 1_000;
  const durationMs = options.durationMs ?? 8_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
  const base = new URL(options.baseUrl);

  const latencies: number[] = [];
  const labelLatencies = new Map<string, number[]>();
  const labelErrors = new Map<string, number>();
  const errorSamples: string[] = [];
  let errors = 0;
  let serverErrors = 0;
  let warmupErrors = 0;
  let lastEnd = 0;
  let allRequests = 0;
  const startedAt = performance.now();
  const measureFrom = startedAt + warmupMs;
  const stopAt = measureFrom + durationMs;

  const once = (spec: LoadRequest) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const headers: Record<string, string> = { accept: 'application/json', ...spec.headers };
      if (spec.body !== undefined) headers['content-length'] = String(Buffer.byteLength(spec.body));
      const req = http.request(
        {
          host: base.hostname,
          port: base.port,
          path: spec.path,
          method: spec.method ?? 'GET',
          headers,
          agent,
          timeout: timeoutMs,
        },
        (res) => {
          // Only an error's body is kept (its first bytes), for the report.
          const failed = res.statusCode !== (spec.expectStatus ?? 200);
          let body = '';
          res.on('data', (chunk: Buffer) => {
            if (failed && body.length < 300) body += chunk.toString('utf8');
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(spec.body);
    });

  const worker = async (index: number) => {
    while (performance.now() < stopAt) {
      const spec = options.next(index);
      const start = performance.now();
      let failure: string | null = null;
      let status = 0;
      try {
        const answer = await once(spec);
        status = answer.status;
        if (status !== (spec.expectStatus ?? 200)) failure = `status ${status} ${answer.body.slice(0, 200)}`;
      } catch (error) {
        failure = (error as Error).message;
      }
      const end = performance.now();
      allRequests++;
      const sample = () => {
        if (errorSamples.length < 10)
          errorSamples.push(`${spec.method ?? 'GET'} ${spec.path} (${spec.label}): ${failure}`);
      };
      if (start < measureFrom) {
        if (failure) warmupErrors++;
        continue;
      }
      lastEnd = Math.max(lastEnd, end);
      if (failure) {
        errors++;
        if (status >= 500) serverErrors++;
        labelErrors.set(spec.label, (labelErrors.get(spec.label) ?? 0) + 1);
        sample();
      } else {
        latencies.push(end - start);
        let list = labelLatencies.get(spec.label);
        if (!list) labelLatencies.set(spec.label, (list = []));
        list.push(end - start);
      }
    }
  };

  try {
    await Promise.all(Array.from({ length: concurrency }, (_, index) => worker(index)));
  } finally {
    agent.destroy();
  }

  const seconds = Math.max(lastEnd - measureFrom, 1) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  const sum = latencies.reduce((a, b) => a + b, 0);
  const byLabel = new Map<string, LabelResult>();
  for (const label of new Set([...labelLatencies.keys(), ...labelErrors.keys()])) {
    const own = Float64Array.from(labelLatencies.get(label) ?? []).sort();
    const failed = labelErrors.get(label) ?? 0;
    byLabel.set(label, {
      requests: own.length + failed,
      errors: failed,
      p50: percentile(own, 0.5),
      p95: percentile(own, 0.95),
    });
  }
  return {
    requests: latencies.length + errors,
    errors,
    serverErrors,
    warmupErrors,
    allRequests,
    errorSamples,
    seconds,
    requestsPerSecond: (latencies.length + errors) / seconds,
    latencyMs: {
      mean: latencies.length ? sum / latencies.length : Number.NaN,
      p50: percentile(sorted, 0.5),
      p95: percentile(sorted, 0.95),
      p99: percentile(sorted, 0.99),
      max: sorted.length ? sorted[sorted.length - 1] : Number.NaN,
    },
    byLabel,
  };
}

/** The same GET again and again from `concurrency` workers (see runScenario). */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const url = new URL(options.url);
  const spec: LoadRequest = {
    label: url.pathname,
    path: url.pathname + url.search,
    headers: options.headers,
    expectStatus: options.expectStatus ?? 200,
  };
  const {
    byLabel: _byLabel,
    serverErrors: _serverErrors,
    warmupErrors: _warmupErrors,
    ...result
  } = await runScenario({
    baseUrl: url.origin,
    concurrency: options.concurrency ?? 50,
    warmupMs: options.warmupMs,
    durationMs: options.durationMs,
    timeoutMs: options.timeoutMs,
    next: () => spec,
  });
  return result;
}
