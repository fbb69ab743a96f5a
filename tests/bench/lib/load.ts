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

/**
 * A small closed-loop load generator on node:http (keep-alive agent, one socket per worker). Each worker
 * records the latency of every request it starts after the warm-up: from `request()` to the last body byte.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const concurrency = options.concurrency ?? 50;
  const warmupMs = options.warmupMs ?? 1_000;
  const durationMs = options.durationMs ?? 8_000;
  const expectStatus = options.expectStatus ?? 200;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
  const url = new URL(options.url);
  const headers = { accept: 'application/json', ...options.headers };

  const latencies: number[] = [];
  const errorSamples: string[] = [];
  let errors = 0;
  let lastEnd = 0;
  let allRequests = 0;
  const startedAt = performance.now();
  const measureFrom = startedAt + warmupMs;
  const stopAt = measureFrom + durationMs;

  const once = () =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(
        { host: url.hostname, port: url.port, path: url.pathname + url.search, method: 'GET', headers, agent, timeout: timeoutMs },
        (res) => {
          res.on('data', () => {});
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end();
    });

  const worker = async () => {
    while (performance.now() < stopAt) {
      const start = performance.now();
      let failure: string | null = null;
      try {
        const status = await once();
        if (status !== expectStatus) failure = `status ${status}`;
      } catch (error) {
        failure = (error as Error).message;
      }
      const end = performance.now();
      allRequests++;
      if (start < measureFrom) continue;
      lastEnd = Math.max(lastEnd, end);
      if (failure) {
        errors++;
        if (errorSamples.length < 5) errorSamples.push(failure);
      } else {
        latencies.push(end - start);
      }
    }
  };

  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    agent.destroy();
  }

  const seconds = Math.max(lastEnd - measureFrom, 1) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  const pick = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : Number.NaN);
  const sum = latencies.reduce((a, b) => a + b, 0);
  return {
    requests: latencies.length + errors,
    errors,
    allRequests,
    errorSamples,
    seconds,
    requestsPerSecond: (latencies.length + errors) / seconds,
    latencyMs: { mean: latencies.length ? sum / latencies.length : Number.NaN, p50: pick(0.5), p95: pick(0.95), p99: pick(0.99), max: sorted.length ? sorted[sorted.length - 1] : Number.NaN },
  };
}
