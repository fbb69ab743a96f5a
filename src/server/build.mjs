// Builds what `npm start` serves when it is missing or older than its sources: the client (Vite) and the server
// (a JavaScript bundle made by esbuild, which comes with tsx and vite, and one for its upload worker thread; packages
// stay in node_modules).
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const builtServer = path.join(root, 'dist/server/main.mjs');
const builtIndex = path.join(root, 'dist/client/index.html');

/** How esbuild bundles the server (its entries and output folder aside): also what the benches time as shipped. */
export const serverBundleOptions = {
  outExtension: { '.js': '.mjs' },
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
};

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Missing, or older than the newest file of `sources` (folders searched whole, files as they are). */
function stale(output, sources) {
  if (!existsSync(output)) return true;
  const present = sources.map((source) => path.join(root, source)).filter(existsSync);
  const newest = Math.max(
    ...present.map((source) => (statSync(source).isDirectory() ? newestMtime(source) : statSync(source).mtimeMs)),
  );
  return newest > statSync(output).mtimeMs;
}

export function buildClientIfStale() {
  // schemas/fixed: the client builds the screens of tags and features from those files.
  if (!stale(builtIndex, ['src/client', 'src/common', 'public', 'schemas/fixed'])) return;
  console.log('Building the client (first start or changed sources)...');
  execSync('npx vite build --logLevel warn', { cwd: root, stdio: 'inherit' });
}

export async function buildServerIfStale() {
  if (!stale(builtServer, ['src/server', 'src/common', 'package.json', 'package-lock.json'])) return;
  console.log('Building the server (first start or changed sources)...');
  const esbuild = await import('esbuild');
  const { outputFiles } = await esbuild.build({
    // The embedded database's thread (db/pglite-thread.ts) is started from its own file beside main.mjs.
    entryPoints: {
      main: path.join(root, 'src/server/main.ts'),
      'pglite-worker': path.join(root, 'src/server/db/pglite-worker.ts'),
      // The upload worker threads (workers/upload-workers.ts).
      'upload-worker': path.join(root, 'src/server/workers/worker-main.ts'),
    },
    outdir: path.dirname(builtServer),
    ...serverBundleOptions,
    sourcemap: 'linked',
    logLevel: 'warning',
    write: false,
  });
  // Each file written whole under another name, then renamed: a server starting meanwhile (or a second build running
  // at the same time, as parallel test files do) never reads half a bundle.
  for (const file of outputFiles) {
    mkdirSync(path.dirname(file.path), { recursive: true });
    const partial = `${file.path}.${process.pid}.partial`;
    writeFileSync(partial, file.contents);
    renameSync(partial, file.path);
  }
  // esbuild's service process would otherwise stay beside the supervisor for as long as it runs.
  await esbuild.stop();
}
