import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface ThreadBundle {
  /** The file's name before its content hash and extension, e.g. `upload-worker`. */
  name: string;
  /** The thread's TypeScript entry, an absolute path. */
  entry: string;
  format: 'cjs' | 'esm';
  /**
   * Leave the packages in node_modules (one that reads its own files from beside itself, as PGlite does): the file
   * then goes in node_modules/.cache, where they resolve as from the sources. Otherwise they are bundled in, and the
   * file goes in the system's temporary folder.
   */
  externalPackages?: boolean;
}

const bundles = new Map<string, Promise<URL>>();

/**
 * A worker thread's code bundled from the TypeScript sources by esbuild, once per process (tests, `npm run dev`;
 * `npm start` runs the bundles build.mjs made beside main.mjs): a thread loads it as quickly as the built one, where a
 * thread that registered tsx compiled its sources anew, with a loader thread of its own.
 */
export function threadBundle(bundle: ThreadBundle): Promise<URL> {
  let made = bundles.get(bundle.entry);
  if (!made) {
    made = bundleSources(bundle);
    bundles.set(bundle.entry, made);
  }
  return made;
}

/** The file is named by its content: every process of the same sources shares one, and none is left over. */
async function bundleSources({ name, entry, format, externalPackages = false }: ThreadBundle): Promise<URL> {
  const { build } = await import('esbuild');
  const extension = format === 'cjs' ? 'cjs' : 'mjs';
  const { outputFiles } = await build({
    entryPoints: [entry],
    bundle: true,
    ...(externalPackages ? { packages: 'external' as const } : {}),
    platform: 'node',
    format,
    target: 'node20',
    write: false,
    outfile: `${name}.${extension}`,
    logLevel: 'warning',
  });
  const code = outputFiles[0].contents;
  const folder = externalPackages
    ? path.join(path.dirname(createRequire(import.meta.url).resolve('esbuild/package.json')), '../.cache')
    : os.tmpdir();
  const file = path.join(
    folder,
    `om-${name}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.${extension}`,
  );
  if (!existsSync(file)) {
    mkdirSync(folder, { recursive: true });
    // Written whole under another name first: processes starting together (test workers) never read half a file.
    const partial = `${file}.${randomUUID()}`;
    await writeFile(partial, code);
    await rename(partial, file);
  }
  return pathToFileURL(file);
}
