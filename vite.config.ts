/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './src/build/precompress.js';

const serverPort = Number(process.env.PORT ?? 8000);

// One config for the client build (src/client -> dist/client) and the test projects.
export default defineConfig({
  root: 'src/client',
  publicDir: '../../public',
  plugins: [react(), precompress()],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        // Everything the first page needs (the entry's static graph, sign-in included) in one chunk, and the signed-in
        // shell (layout and dashboard, with what they use) in a second: a phone on a slow link pays a round trip per
        // chunk, and a chain of small shared chunks is a chain of round trips. Other lazy routes keep rolldown's
        // automatic splitting.
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'], priority: 2 },
            { name: 'shell', test: /src[\\/]client[\\/](layout[\\/]AppLayout|dashboard[\\/]Dashboard)\.tsx$/, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': `http://localhost:${serverPort}`,
      '/sanctum': `http://localhost:${serverPort}`,
      '/broadcasting': `http://localhost:${serverPort}`,
      '/app': { target: `ws://localhost:${serverPort}`, ws: true },
    },
  },
  test: {
    root: '.',
    projects: [
      {
        extends: true,
        test: { name: 'unit', root: '.', include: ['tests/unit/**/*.test.{ts,tsx}'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'api',
          root: '.',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/api/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Each file starts its own app on its own database (a copied PGlite folder or a PostgreSQL database of
          // its own), so two files at once are safe; the embedded database runs on the test's thread, so two workers
          // keep both cores of a small machine busy.
          fileParallelism: true,
          maxWorkers: 2,
          // Files share a worker's module cache: each file still builds its own app and database, and loading the
          // server's modules once per worker instead of once per file takes about 40% off the suite.
          isolate: false,
        },
      },
    ],
  },
});
