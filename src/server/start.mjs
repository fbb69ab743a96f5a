// `npm start`: builds the client and the server when they are missing or older than their sources, then runs the
// server (one JavaScript bundle, dist/server/main.mjs) in this same process so signals reach it directly.
// `npm run dev`, the tests and most benchmarks run the TypeScript sources through tsx instead.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const builtIndex = path.join(root, 'dist/client/index.html');
const builtServer = path.join(root, 'dist/server/main.mjs');

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
  const newest = Math.max(...present.map((source) => (statSync(source).isDirectory() ? newestMtime(source) : statSync(source).mtimeMs)));
  return newest > statSync(output).mtimeMs;
}

if (process.env.SKIP_CLIENT_BUILD !== '1' && stale(builtIndex, ['src/client', 'src/common', 'public'])) {
  console.log('Building the client (first start or changed sources)...');
  execSync('npx vite build --logLevel warn', { cwd: root, stdio: 'inherit' });
}

if (stale(builtServer, ['src/server', 'src/common', 'package.json', 'package-lock.json'])) {
  console.log('Building the server (first start or changed sources)...');
  // esbuild comes with tsx and vite; packages stay in node_modules, only our own code is bundled.
  const { build } = await import('esbuild');
  await build({
    entryPoints: [path.join(root, 'src/server/main.ts')],
    outfile: builtServer,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

// Stack traces in the log point at the TypeScript sources.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(builtServer).href);
