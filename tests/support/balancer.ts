import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small round-robin load balancer on loopback, as nginx would be in front of several app processes: no sticky
 * sessions, and a target that refuses the connection (a killed process) is skipped for the next one.
 */
export async function startBalancer(targets: string[]) {
  const served = new Map<string, number>(targets.map((target) => [target, 0]));
  let turn = 0;
  const forward = (request: http.IncomingMessage, response: http.ServerResponse, body: Buffer, tried: number) => {
    const target = targets[turn++ % targets.length];
    const url = new URL(request.url ?? '/', target);
    const upstream = http.request(
      url,
      {
        method: request.method,
        headers: { ...request.headers, host: url.host, 'x-forwarded-for': request.socket.remoteAddress ?? '' },
      },
      (answer) => {
        served.set(target, (served.get(target) ?? 0) + 1);
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' && tried + 1 < targets.length && !response.headersSent)
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
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** Answers given by each target. */
    served,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
