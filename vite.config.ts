/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { precompress } from './src/build/precompress.js';

const serverPort = Number(process.env.PORT ?? 8000);

// One config for the client build (src/client -> dist/client) and the test projects.
export default defineConfig({
  root: 'src/client',
  publicDir: '../../public',
  resolve: {
    alias: { 'object.entries': fileURLToPath(new URL('./src/build/shims/object-entries.cjs', import.meta.url)) },
  },
  // The installable app (docs/offline.md): the web app manifest and a Workbox service worker that precaches the
  // built app shell. Page loads go to the network first, so a new build is what an online load gets; the cached
  // shell answers only when there is no connection. API reads are kept per session for the offline screens (never
  // the sign-in, session and password routes), and emptied at sign-out (src/client/offline/runtime.ts). The worker is
  // registered by the app in production builds only (src/client/offline/registerServiceWorker.ts).
  plugins: [
    react(),
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'logo.svg', 'apple-touch-icon.png'],
      manifest: {
        name: 'Organizing Map',
        short_name: 'Organizing Map',
        description: 'Job sites, contractors, contacts and visits for union organizers.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: '#1f5f8b',
        background_color: '#ffffff',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        globIgnores: ['privacy.html', 'terms.html'],
        maximumFileSizeToCacheInBytes: 6 * 1024 * 1024,
        cleanupOutdatedCaches: true,
        skipWaiting: true,
        clientsClaim: true,
        navigateFallback: null,
        runtimeCaching: [
          {
            // Workbox writes these functions into the worker as text: they use nothing from this file.
            urlPattern: ({ request, url }) =>
              request.mode === 'navigate' && !/^\/(api|sanctum|broadcasting|app)(\/|$)/.test(url.pathname),
            handler: 'NetworkOnly',
            options: { precacheFallback: { fallbackURL: 'index.html' } },
          },
          {
            urlPattern: ({ url, sameOrigin }) =>
              sameOrigin &&
              url.pathname.startsWith('/api/') &&
              !/^\/api\/(auth|password|health|broadcasting|files|exports|imports|assistant)(\/|$)|\/download$/.test(
                url.pathname,
              ),
            method: 'GET',
            handler: 'NetworkFirst',
            options: {
              cacheName: 'api',
              expiration: { maxEntries: 400, maxAgeSeconds: 7 * 24 * 3600 },
              cacheableResponse: { statuses: [200] },
            },
          },
        ],
      },
    }),
    precompress(),
  ],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    // BUILD_SOURCEMAP=1 writes source maps, to see what each chunk holds (docs/benchmarks.md, page weight).
    sourcemap: process.env.BUILD_SOURCEMAP === '1',
    // .vite/manifest.json: the start answer names the signed-in shell's scripts from it (src/server/system/client-manifest.ts).
    manifest: true,
    chunkSizeWarningLimit: 800,
    // No modulepreload polyfill: both pages would share it, and the public form page would then load the app's first
    // chunk, where it lands. Every browser we support reads <link rel="modulepreload"> (Safari from 17); one that
    // does not only fetches the chunks later.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // Two pages: the app, and the public form page (/f/{slug}, docs/public-forms.md), which loads none of the app.
      input: {
        index: fileURLToPath(new URL('./src/client/index.html', import.meta.url)),
        publicForm: fileURLToPath(new URL('./src/client/public-form.html', import.meta.url)),
      },
      output: {
        // Everything the first page needs (the entry's static graph, sign-in included) in one chunk, and the signed-in
        // shell (layout and dashboard, with what they use) in a second: a phone on a slow link pays a round trip per
        // chunk, and a chain of small shared chunks is a chain of round trips. Other lazy routes keep rolldown's
        // automatic splitting.
        codeSplitting: {
          groups: [
            // The public form page's modules stay out of it: they are that page's whole script (docs/public-forms.md).
            {
              name: 'app',
              tags: ['$initial'],
              test: /^(?!.*src[\\/](client[\\/]public-form|common[\\/]public-forms))/,
              priority: 2,
            },
            // The server names this group's scripts in the start answer by its name (src/server/system/client-manifest.ts).
            {
              name: 'shell',
              test: /src[\\/]client[\\/](layout[\\/]AppLayout|dashboard[\\/]Dashboard)\.tsx$/,
              priority: 1,
            },
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
        // The server's and the shared code's logic: files share a worker's module cache (each file's module loading
        // was most of the suite's time).
        test: {
          name: 'unit',
          root: '.',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          exclude: ['tests/unit/client/**'],
          environment: 'node',
          isolate: false,
        },
      },
      {
        extends: true,
        // The client's: each file isolated. The client's shell keeps its session, main data and services in module
        // state that each file sets up for itself, and a screen's code loaded late (the map's, which needs a window)
        // must not land in the next file.
        test: {
          name: 'unit-client',
          root: '.',
          include: ['tests/unit/client/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
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
          // its own), so two files at once are safe, and keep both cores of a small machine busy (each app's
          // embedded database also runs on a thread of its own). `npm test` runs this suite beside the browser suite
          // with one (API_WORKERS=1, docs/testing.md).
          fileParallelism: true,
          maxWorkers: Number(process.env.API_WORKERS) || 2,
          // Files share a worker's module cache: each file still builds its own app and database, and loading the
          // server's modules once per worker instead of once per file takes about 40% off the suite.
          isolate: false,
        },
      },
    ],
  },
});
