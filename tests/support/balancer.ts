import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BalancerOptions {
  /**
   * Ask each target's readiness (`GET /api/ready`) this often and send requests only to those answering 200, as HAProxy,
   * a Kubernetes readiness probe or nginx's active checks do; when none is ready, every target is tried. Off: nginx's
   * passive mode, where a target is skipped only when it refuses the connection.
   */
  readyEveryMs?: number;
}

/**
 * A small round-robin load balancer on loopback, as nginx would be in front of several app processes: no sticky
 * sessions, and a target that refuses the connection (a stopped process) is skipped for the next one. Targets may be
 * added and removed while it runs (a rolling restart).
 */
export async function startBalancer(initialTargets: string[], options: BalancerOptions = {}) {
  const targets = [...initialTargets];
  const served = new Map<string, number>(targets.map((target) => [target, 0]));
  /** Answers of 500 or more, each as `target status`, for a failure's message. */
  const serverErrors: string[] = [];
  const notReady = new Set<string>();
  let turn = 0;
  const pick = () => {
    const ready = targets.filter((target) => !notReady.has(target));
    const from = ready.length ? ready : targets;
    return from[turn++ % from.length];
  };
  const forward = (request: http.IncomingMessage, response: http.ServerResponse, body: Buffer, tried: number) => {
    const target = pick();
    const url = new URL(request.url ?? '/', target);
    const upstream = http.request(
      url,
      {
        method: request.method,
        headers: { ...request.headers, host: url.host, 'x-forwarded-for': request.socket.remoteAddress ?? '' },
      },
      (answer) => {
        served.set(target, (served.get(target) ?? 0) + 1);
        if ((answer.statusCode ?? 502) >= 500) serverErrors.push(`${target} ${answer.statusCode}`);
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      // Refused: nothing was sent, so any request may go to the next target; this one is out until it answers again.
      if (error.code === 'ECONNREFUSED') {
        notReady.add(target);
        // Without readiness checks it is tried again after a while (nginx's fail_timeout).
        if (!options.readyEveryMs) setTimeout(() => notReady.delete(target), 2_000).unref();
      }
      if (error.code === 'ECONNREFUSED' && tried < targets.length && !response.headersSent)
        forward(request, response, body, tried + 1);
      else if (!response.headersSent) response.writeHead(502).end(`bad gateway: ${error.message}`);
      else response.destroy(error);
    });
    upstream.end(body);
  };
  const server = http.createServer((request, response) => {
    // Read the whole body first so it can be sent again to the next target when one refuses.
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => forward(request, response, Buffer.concat(chunks), 0));
  });
  // nginx's keepalive_timeout (75 s): a client lets an idle connection go before the balancer closes it. With Node's
  // 5 s both ends expire an idle connection at about the same time, and a request sent on it as the balancer closes it
  // is reset (seen under heavy load, where a second's stall in this process is enough).
  server.keepAliveTimeout = 75_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  // A target is taken out when it says it is not ready or refuses the connection; a check that times out (a busy
  // process) leaves it as it was, as HAProxy's `fall` count does for a single slow check.
  const checkAll = async () => {
    await Promise.all(
      targets.map(async (target) => {
        const status = await fetch(`${target}/api/ready`, { signal: AbortSignal.timeout(2_000) })
          .then((answer) => answer.status)
          .catch((error: Error) => (error.name === 'TimeoutError' ? null : 0));
        if (status === 200) notReady.delete(target);
        else if (status !== null) notReady.add(target);
      }),
    );
  };
  let checks: NodeJS.Timeout | null = null;
  let closed = false;
  if (options.readyEveryMs) {
    await checkAll();
    const again = () => {
      if (!closed) checks = setTimeout(() => void checkAll().finally(again), options.readyEveryMs);
    };
    again();
  }

  return {
    url: `http://127.0.0.1:${port}`,
    /** Answers given by each target. */
    served,
    serverErrors,
    add(target: string) {
      targets.push(target);
      served.set(target, 0);
    },
    remove(target: string) {
      const at = targets.indexOf(target);
      if (at >= 0) targets.splice(at, 1);
      notReady.delete(target);
    },
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
        if (checks) clearTimeout(checks);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
