import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedMessage {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A webhook receiver on loopback for tests: keeps every message, and answers each with the next status of
 * `statuses` (the last one repeated): `[500, 500, 200]` fails twice then takes the messages. `answerAfterMs` makes
 * it a slow receiver, answering that long after a message arrived (`at` is when it arrived).
 */
export async function startReceiver(statuses: number[] = [200], { answerAfterMs = 0 } = {}) {
  const received: ReceivedMessage[] = [];
  let answered = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      response.statusCode = statuses[Math.min(answered++, statuses.length - 1)]!;
      setTimeout(() => response.end('ok'), answerAfterMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answer(next: number[]) {
      statuses = next;
      answered = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
