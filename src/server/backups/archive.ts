import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import tar from 'tar-stream';
import type { DatabaseKind } from '../db/database.js';

/** The name of the manifest inside an archive: its last entry, written once every other one is in. */
export const MANIFEST = 'manifest.json';
export const FORMAT = 'organizing-map-backup';

export interface ArchiveEntry {
  path: string;
  size: number;
  sha256: string;
}

/** What a backup holds, and the figures a restore checks: every entry's size and sha-256, every table's row count. */
export interface Manifest {
  format: typeof FORMAT;
  version: 1;
  app_version: string;
  /** The backup_runs row of this backup, marked succeeded by a restore (its row in the copy still says running). */
  run_id: number | null;
  started_at: string;
  /** When the database was copied: the counts and the database part are of this moment. */
  snapshot_at: string;
  finished_at: string;
  database: { kind: DatabaseKind; tables: Record<string, number> };
  files: { count: number; bytes: number };
  /** Folders, empty ones included (a database folder needs its empty folders). */
  directories: string[];
  entries: ArchiveEntry[];
}

/** A tar.gz written entry by entry (each one's sha-256 taken as it passes), the manifest last. */
export class ArchiveWriter {
  private readonly pack = tar.pack();
  private readonly done: Promise<void>;
  readonly entries: ArchiveEntry[] = [];
  readonly directories: string[] = [];

  constructor(readonly file: string) {
    this.done = pipeline(this.pack, createGzip({ level: 6 }), createWriteStream(file, { mode: 0o600 }));
    // A failure of the output (disk full) surfaces through `done`; the pack must not throw on its own meanwhile.
    this.done.catch(() => {});
  }

  /** Adds `size` bytes read from `source` as `name`. */
  async add(name: string, size: number, source: Readable) {
    const hash = createHash('sha256');
    let seen = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        seen += chunk.length;
        callback(null, chunk);
      },
    });
    const entry = this.pack.entry({ name, size, mode: 0o600, mtime: new Date() });
    await Promise.race([pipeline(source, counted, entry), this.done.then(() => {})]);
    if (seen !== size) throw new Error(`${name} changed while it was read (${seen} bytes, not ${size}).`);
    this.entries.push({ path: name, size, sha256: hash.digest('hex') });
  }

  /** Adds every folder and file under `localFolder`, under `name/`. */
  async addFolder(name: string, localFolder: string) {
    this.addDirectory(name);
    for (const entry of await readdir(localFolder, { withFileTypes: true })) {
      const full = path.join(localFolder, entry.name);
      if (entry.isDirectory()) await this.addFolder(`${name}/${entry.name}`, full);
      else if (entry.isFile()) await this.addFile(`${name}/${entry.name}`, full);
    }
  }

  private addDirectory(name: string) {
    this.pack.entry({ name, type: 'directory', mode: 0o700, mtime: new Date() });
    this.directories.push(name);
  }

  async addFile(name: string, localPath: string) {
    const { size } = await stat(localPath);
    await this.add(name, size, createReadStream(localPath));
  }

  /** Writes the manifest (with every entry added) and closes the archive. */
  async finish(manifest: Omit<Manifest, 'entries' | 'directories'>): Promise<Manifest> {
    const whole: Manifest = { ...manifest, directories: this.directories, entries: this.entries };
    const text = Buffer.from(JSON.stringify(whole, null, 1));
    this.pack.entry({ name: MANIFEST, size: text.length, mode: 0o600, mtime: new Date() }, text);
    this.pack.finalize();
    await this.done;
    return whole;
  }

  /** Stops writing (after a failure); the caller removes the file. */
  abort(error: Error) {
    this.pack.destroy(error);
  }
}

/** The archive is not one this app wrote whole: unreadable, cut short, or not matching its own manifest. */
export class DamagedArchiveError extends Error {}

/**
 * Extracts `file` into `folder`, checking it against its manifest: every entry present with its size and sha-256, none
 * missing, none extra, no path leaving the folder. Returns the manifest; throws DamagedArchiveError otherwise.
 */
export async function extractArchive(file: string, folder: string): Promise<Manifest> {
  const seen = new Map<string, ArchiveEntry>();
  const directories = new Set<string>();
  let manifestText: string | null = null;
  const extract = tar.extract();
  const reading = pipeline(createReadStream(file), createGunzip(), extract);
  reading.catch(() => {});
  try {
    for await (const entry of extract) {
      const name = entry.header.name.replace(/\/$/, '');
      if (name === MANIFEST) {
        manifestText = await text(entry);
        continue;
      }
      const target = path.resolve(folder, name);
      if (!target.startsWith(path.resolve(folder) + path.sep) || seen.has(name) || directories.has(name))
        throw new DamagedArchiveError(`it holds an entry named "${name}"`);
      if (entry.header.type === 'directory') {
        await mkdir(target, { recursive: true });
        directories.add(name);
        entry.resume();
        continue;
      }
      if (entry.header.type !== 'file') throw new DamagedArchiveError(`it holds "${name}", which is not a file`);
      await mkdir(path.dirname(target), { recursive: true });
      const hash = createHash('sha256');
      let size = 0;
      const tee = new PassThrough();
      tee.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        size += chunk.length;
      });
      await pipeline(entry, tee, createWriteStream(target, { mode: 0o600 }));
      seen.set(name, { path: name, size, sha256: hash.digest('hex') });
    }
    await reading;
  } catch (error) {
    if (error instanceof DamagedArchiveError) throw error;
    throw new DamagedArchiveError(`it cannot be read to its end (${(error as Error).message})`);
  }
  if (manifestText === null)
    throw new DamagedArchiveError(`it has no ${MANIFEST}: not a backup of this app, or cut short`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(manifestText);
  } catch {
    throw new DamagedArchiveError(`its ${MANIFEST} is not readable`);
  }
  if (
    manifest.format !== FORMAT ||
    manifest.version !== 1 ||
    !Array.isArray(manifest.entries) ||
    !Array.isArray(manifest.directories)
  )
    throw new DamagedArchiveError(`its ${MANIFEST} is not a manifest of this app's backups (format version 1)`);
  for (const expected of manifest.entries) {
    const found = seen.get(expected.path);
    if (!found) throw new DamagedArchiveError(`${expected.path} is missing`);
    if (found.size !== expected.size || found.sha256 !== expected.sha256)
      throw new DamagedArchiveError(`${expected.path} does not match its checksum`);
    seen.delete(expected.path);
  }
  if (seen.size > 0) throw new DamagedArchiveError(`${[...seen.keys()][0]} is not in the manifest`);
  for (const name of manifest.directories)
    if (!directories.delete(name)) throw new DamagedArchiveError(`the folder ${name} is missing`);
  if (directories.size > 0) throw new DamagedArchiveError(`the folder ${[...directories][0]} is not in the manifest`);
  return manifest;
}

async function text(stream: AsyncIterable<unknown>) {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts).toString('utf8');
}
