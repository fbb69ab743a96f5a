import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FileStore } from '../files/file-store.js';
import type { UploadedFile } from './uploads.js';

/** Where an import's files are kept in the file store (DATA_DIR/files/imports, or the bucket's imports/). */
export const IMPORT_FILES_PREFIX = 'imports/';

/**
 * An import's file as `imports.files` records it: its key in the file store. `path` is what imports made before
 * files moved to the store recorded (DATA_DIR/files/imports/<uuid>.csv); it names the same file as its key.
 */
export type StoredFile = Omit<UploadedFile, 'path'> & { key: string; path?: string };

/** Moves checked uploads into the store; the local copies are gone afterwards. */
export async function keepImportFiles(files: FileStore, uploads: UploadedFile[]): Promise<StoredFile[]> {
  const kept: StoredFile[] = [];
  for (const upload of uploads) {
    const key = `${IMPORT_FILES_PREFIX}${randomUUID()}${path.extname(upload.path).toLowerCase() || '.csv'}`;
    await files.putFile(key, upload.path, 'text/csv');
    kept.push({ name: upload.name, key, size: upload.size, encoding: upload.encoding, lines: upload.lines });
  }
  return kept;
}

export function importFileKey(file: Pick<StoredFile, 'key' | 'path'>): string {
  if (file.key) return file.key;
  // DATA_DIR/files/imports/<name>: the folder store's key is the path below DATA_DIR/files.
  return `${IMPORT_FILES_PREFIX}${path.basename(String(file.path))}`;
}

/** The file's bytes, streamed from the store (never whole in memory); a clear error when it is no longer kept. */
export async function openImportFile(files: FileStore, file: StoredFile): Promise<Readable> {
  const found = await files.read(importFileKey(file));
  if (!found)
    throw new Error(`The file “${file.name}” is no longer kept, so the import cannot read it. Upload it again.`);
  return found.stream;
}

export async function removeImportFiles(files: FileStore, stored: ReadonlyArray<Pick<StoredFile, 'key' | 'path'>>) {
  await Promise.all(stored.map((file) => files.remove(importFileKey(file))));
}
