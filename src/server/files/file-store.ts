import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../config/config.js';

/** A stored file being read: its bytes as a stream, and its size for Content-Length. */
export interface StoredFileReader {
  stream: Readable;
  size: number;
}

export interface StoredObject {
  key: string;
  size: number;
  modifiedAt: Date;
}

/**
 * Where documents, attachments and export files are kept, by key (`documents/2026/11/<uuid>.pdf`,
 * `exports/export-12.csv`): the data folder's `files/` by default, or an S3-compatible bucket when the S3_*
 * settings are given (docs/operations.md). Files arrive as finished local files (a checked upload, a written export)
 * and leave as streams: never whole in memory.
 */
export interface FileStore {
  readonly kind: 'folder' | 's3';
  /** Moves the local file at `localPath` into the store under `key` (the local file is gone afterwards). */
  putFile(key: string, localPath: string, contentType?: string): Promise<void>;
  /** The file under `key`, or null when it is not there. */
  read(key: string): Promise<StoredFileReader | null>;
  remove(key: string): Promise<void>;
  /** Every file whose key starts with `prefix`. */
  list(prefix: string): AsyncIterable<StoredObject>;
}

/** Keys are relative paths of plain segments: nothing can climb out of the folder or the bucket's prefix. */
export function checkKey(key: string): string {
  const segments = key.split('/');
  if (
    !key ||
    key.length > 500 ||
    segments.some((segment) => !segment || segment === '.' || segment === '..' || /[\\\u0000-\u001f]/.test(segment))
  ) {
    throw new Error(`Not a file key: ${JSON.stringify(key)}`);
  }
  return key;
}

export class FolderStore implements FileStore {
  readonly kind = 'folder' as const;

  constructor(readonly root: string) {}

  private full(key: string) {
    return path.join(this.root, ...checkKey(key).split('/'));
  }

  async putFile(key: string, localPath: string) {
    const target = this.full(key);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await rename(localPath, target);
    } catch (error: any) {
      // Another file system (a temporary folder elsewhere): copy, then remove the original.
      if (error?.code !== 'EXDEV') throw error;
      await copyFile(localPath, target);
      await rm(localPath, { force: true });
    }
  }

  async read(key: string): Promise<StoredFileReader | null> {
    const full = this.full(key);
    const info = await stat(full).catch(() => null);
    if (!info?.isFile()) return null;
    return { stream: createReadStream(full), size: info.size };
  }

  async remove(key: string) {
    await rm(this.full(key), { force: true });
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    const root = this.root;
    const walk = async function* (dir: string): AsyncIterable<StoredObject> {
      for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) yield* walk(full);
        else if (entry.isFile()) {
          const info = await stat(full).catch(() => null);
          if (info)
            yield { key: path.relative(root, full).split(path.sep).join('/'), size: info.size, modifiedAt: info.mtime };
        }
      }
    };
    yield* walk(path.join(root, ...prefix.split('/').filter(Boolean)));
  }
}

/** Where uploads and exports are written before they are checked or finished and moved into the store. */
export const temporaryFolder = (config: Pick<Config, 'dataDir'>) => path.join(config.dataDir, 'files', 'tmp');

/** The store the settings ask for: a bucket when S3_BUCKET is set, else DATA_DIR/files. */
export async function openFileStore(config: Config): Promise<FileStore> {
  if (!config.s3) return new FolderStore(path.join(config.dataDir, 'files'));
  // Loaded only here: without S3 settings the SDK is never needed.
  const { S3Store } = await import('./s3-store.js');
  return new S3Store(config.s3);
}
