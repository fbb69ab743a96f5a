/**
 * A Twilio-compatible SMS provider on loopback for the browser tests (the e2e server is pointed at
 * SMS_PROVIDER_PORT): it answers every message as sent and keeps what it was given, so a test reads the code texted.
 */
import http from 'node:http';
import { SMS_PROVIDER_PORT } from '../../playwright.config';

export async function startFakeSmsProvider() {
  const texts: URLSearchParams[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      texts.push(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ sid: `SM${texts.length}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(SMS_PROVIDER_PORT, '127.0.0.1', resolve));
  return {
    texts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
