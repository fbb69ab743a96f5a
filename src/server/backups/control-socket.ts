import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { BackupResult, BackupSources } from './backup.js';
import { makeBackup } from './backup.js';

/**
 * How `npm run backup` reaches the running server of the same data folder: HTTP over a Unix socket in
 * DATA_DIR/control/ (a folder only the data folder's owner may enter), never over the network. Whoever may use it
 * may read the data folder anyway; nobody else can connect. (On Windows: a named pipe named after the folder.)
 */
export function controlSocketPath(dataDir: string): string | null {
  if (process.platform === 'win32')
    return `\\\\.\\pipe\\organizing-map-${createHash('sha1').update(dataDir).digest('hex').slice(0, 16)}`;
  const socket = path.join(dataDir, 'control', 'backup.sock');
  // A Unix socket's path has a limit of about 104 bytes.
  return Buffer.byteLength(socket) < 100 ? socket : null;
}

export interface BackupAnswer {
  run_id: number;
  file: string;
  size_bytes: number;
  seconds: number;
  held_seconds: number;
  tables: Record<string, number>;
  files: number;
}

/** A backup's figures as `npm run backup` prints them. */
export const answerOf = (result: BackupResult): BackupAnswer => ({
  run_id: result.runId,
  file: result.target,
  size_bytes: result.sizeBytes,
  seconds: result.seconds,
  held_seconds: result.heldSeconds,
  tables: result.manifest.database.tables,
  files: result.manifest.files.count,
});

/**
 * Serves `POST /backups {"file": "/absolute/path.tar.gz"}` on the control socket: makes the backup (backup.ts) and
 * answers its figures, or 500 with the reason. Only the embedded database needs it (its data folder is this process's
 * alone); with PostgreSQL `npm run backup` does the same work itself.
 */
export async function serveControlSocket(sources: BackupSources): Promise<{ close(): Promise<void> } | null> {
  const socket = controlSocketPath(sources.config.dataDir);
  if (!socket) return null;
  if (process.platform !== 'win32') {
    mkdirSync(path.dirname(socket), { recursive: true, mode: 0o700 });
    chmodSync(path.dirname(socket), 0o700);
    // Left by a process that was killed: this process holds the data folder's lock, so it is nobody's.
    rmSync(socket, { force: true });
  }
  const server = http.createServer(async (request, response) => {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method !== 'POST' || request.url !== '/backups') return reply(404, { message: 'Not found.' });
    try {
      let text = '';
      for await (const chunk of request) {
        text += chunk;
        if (text.length > 10_000) return reply(413, { message: 'Too long.' });
      }
      const file = JSON.parse(text).file;
      if (typeof file !== 'string' || !path.isAbsolute(file))
        return reply(422, { message: 'Give the archive an absolute file path.' });
      reply(200, answerOf(await makeBackup(sources, { file }, { trigger: 'manual' })));
    } catch (error) {
      reply(500, { message: (error as Error).message });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Asks the server running on `dataDir` to write a backup to `file`. Null when no server listens there (none runs,
 * or one too old to have the socket).
 */
export async function askServerToBackUp(dataDir: string, file: string): Promise<BackupAnswer | null> {
  const socket = controlSocketPath(dataDir);
  if (!socket) return null;
  return new Promise((resolve, reject) => {
    const request = http.request(
      { socketPath: socket, method: 'POST', path: '/backups', headers: { 'content-type': 'application/json' } },
      async (response) => {
        let text = '';
        for await (const chunk of response) text += chunk;
        const body = JSON.parse(text || '{}');
        if (response.statusCode === 200) resolve(body);
        else reject(new Error(body.message ?? `The server answered ${response.statusCode}.`));
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(null);
      else reject(error);
    });
    request.end(JSON.stringify({ file }));
  });
}
