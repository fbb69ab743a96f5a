/**
 * `npm run files:to-s3`: copies the files kept in DATA_DIR/files (documents, attachments, exports, import uploads) to
 * the bucket the S3_* settings name, under the same keys, skipping those already there with the same size. The
 * folder is left as it is: remove it once the app runs with the S3 settings and the files download.
 */
import path from 'node:path';
import { ConfigError, loadConfig } from '../config/config.js';
import { FolderStore } from './file-store.js';
import { S3Store } from './s3-store.js';

export async function copyFolderToBucket(
  dataDir: string,
  settings: ConstructorParameters<typeof S3Store>[0],
  log: (line: string) => void = console.log,
) {
  const folder = new FolderStore(path.join(dataDir, 'files'));
  const bucket = new S3Store(settings);
  const there = new Map<string, number>();
  for await (const object of bucket.list('')) there.set(object.key, object.size);
  let copied = 0;
  let skipped = 0;
  for await (const file of folder.list('')) {
    // Unfinished uploads and exports wait in tmp/: nothing refers to them.
    if (file.key.startsWith('tmp/')) continue;
    if (there.get(file.key) === file.size) {
      skipped++;
      continue;
    }
    await bucket.copyFile(file.key, path.join(folder.root, ...file.key.split('/')));
    copied++;
    if (copied % 100 === 0) log(`  ${copied} files copied...`);
  }
  log(
    `Copied ${copied} file${copied === 1 ? '' : 's'} to s3://${settings.bucket}/${settings.prefix}; ${skipped} already there.`,
  );
  return { copied, skipped };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const config = loadConfig();
    if (!config.s3)
      throw new ConfigError(
        'Set S3_BUCKET (and S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY for a server other than AWS) to copy the files there.',
      );
    await copyFolderToBucket(config.dataDir, config.s3);
  } catch (error) {
    console.error(`\nCannot copy the files: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
