import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One data path in the client (issue 29 point 4): every read and write goes through the data provider
 * (providers/dataProvider.ts, named methods for what is not CRUD), which features get with `useAppDataProvider()`;
 * features do not reach for the app's singletons (app/services.ts), and the shell (app/, layout/, routing/) imports
 * no feature. The lists below are what is left to move. They only shrink: a new file on them fails, and so does a
 * file that no longer needs its entry (take it off).
 */
const ROOT = path.resolve(__dirname, '../../src/client');
const SHELL = ['app', 'layout', 'routing'];
/** Not features: the HTTP client, session, providers and the app-wide registries and stores. */
const INFRASTRUCTURE = ['http', 'i18n', 'providers', 'resources', 'session', 'system', 'theme'];

/** Files that still call the HTTP client themselves (offline/: the outbox and the site cache, beside the provider). */
const DIRECT_HTTP = ['offline/registerServiceWorker.ts', 'offline/send.ts', 'offline/siteCache.ts'];

/** Files that still use the provider's `call(method, path)` escape hatch instead of a named method. */
const ESCAPE_HATCH: string[] = [];

/** Feature files that still import the app's singletons. */
const SINGLETONS = ['offline/registerServiceWorker.ts', 'realtime/RealtimeConnector.tsx'];

/** Shell files that still import a feature (app/features.ts, the list of feature folders, is where they register). */
const SHELL_IMPORTS = [
  'app/App.tsx -> accessDenied',
  'app/App.tsx -> auth',
  'app/App.tsx -> notFound',
  'app/services.ts -> offline',
];

/**
 * What the shell offers the features: hooks onto the session and the loaded data, the page's frame (title, header,
 * loading screen, side panel), the menu's types a feature's entries are made of, and the routing helpers. The rest of
 * the shell (app/features.ts, services.ts, App.tsx, the layout's menu, user menu and styles) is its own.
 */
const SHELL_PUBLIC = [
  'app/hooks',
  'layout/CenteredCardLayout',
  'layout/LoadingScreen',
  'layout/PageHeader',
  'layout/SidePanel',
  'layout/copy-text',
  'layout/firstPaint',
  'layout/initials',
  'layout/menuModel',
  'layout/useDocumentTitle',
  'layout/useNarrow',
  'routing/guards',
  'routing/lazyPage',
];

/** Feature files that still import one of the shell's own modules (app/services.ts: SINGLETONS above). */
const SHELL_INTERNALS = [
  'offline/registerServiceWorker.ts -> app/startAnswer',
  'records/grid/ListGrid.tsx -> layout/layoutStyles',
];

function sources(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const file = path.join(folder, name);
    if (statSync(file).isDirectory()) return sources(file);
    return /\.tsx?$/.test(file) ? [file] : [];
  });
}

/** The code without its comments (a comment may name a path; only code calls it). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

const top = (relative: string) => relative.split('/')[0];
const isFeature = (folder: string) => !SHELL.includes(folder) && !INFRASTRUCTURE.includes(folder);

function directHttp(relative: string, text: string): boolean {
  if (['providers', 'http', 'session'].includes(top(relative)) || relative === 'app/services.ts') return false;
  return /\bhttp\.(get|post|put|patch|delete|request)\b/.test(text);
}
const escapeHatch = (text: string) => /\.call(<[^>]*>)?\(\s*['"](GET|POST|PUT|PATCH|DELETE)/.test(text);
const singletons = (relative: string, text: string) =>
  relative.includes('/') && isFeature(top(relative)) && /from '(\.\.\/)+app\/services'/.test(text);
function shellImports(relative: string, text: string): string[] {
  if (!SHELL.includes(top(relative)) || relative === 'app/features.ts') return [];
  const folders = [...text.matchAll(/from '\.\.\/([A-Za-z]+)\//g)].map((match) => match[1]);
  return [...new Set(folders.filter(isFeature))].map((folder) => `${relative} -> ${folder}`);
}

function shellInternals(relative: string, text: string): string[] {
  if (!relative.includes('/') || !isFeature(top(relative))) return [];
  const modules = [...text.matchAll(/from '(?:\.\.\/)+((?:app|layout|routing)\/[A-Za-z-]+)'/g)].map(
    (match) => match[1],
  );
  return [...new Set(modules)]
    .filter((module) => module !== 'app/services' && !SHELL_PUBLIC.includes(module))
    .map((module) => `${relative} -> ${module}`);
}

describe('one data path in the client', () => {
  const files = sources(ROOT).map((file) => ({
    relative: path.relative(ROOT, file).split(path.sep).join('/'),
    text: code(readFileSync(file, 'utf8')),
  }));
  const matching = (test: (relative: string, text: string) => boolean) =>
    files.filter(({ relative, text }) => test(relative, text)).map(({ relative }) => relative);

  it('scans the client', () => {
    expect(files.length).toBeGreaterThan(200);
    expect(files.some(({ relative }) => relative === 'providers/dataProvider.ts')).toBe(true);
  });

  it('no file calls the HTTP client past the data provider', () => {
    expect(matching(directHttp).sort()).toEqual([...DIRECT_HTTP].sort());
  });

  it('no file uses the provider’s call() escape hatch instead of a named method', () => {
    expect(matching((_, text) => escapeHatch(text)).sort()).toEqual([...ESCAPE_HATCH].sort());
  });

  it('no feature imports the app’s singletons', () => {
    expect(matching(singletons).sort()).toEqual([...SINGLETONS].sort());
  });

  it('the shell imports no feature', () => {
    const found = files.flatMap(({ relative, text }) => shellImports(relative, text));
    expect(found.sort()).toEqual([...SHELL_IMPORTS].sort());
  });

  it('no feature imports the shell’s own modules, only what it offers the features', () => {
    const found = files.flatMap(({ relative, text }) => shellInternals(relative, text));
    expect(found.sort()).toEqual([...SHELL_INTERNALS].sort());
  });

  it('the scan would see each (the patterns match such code)', () => {
    expect(directHttp('map/api.ts', "const answer = await http.get('/api/map/filters');")).toBe(true);
    expect(directHttp('providers/dataProvider.ts', "await http.get('/api/features');")).toBe(false);
    expect(escapeHatch("dataProvider.call<{ data: X }>('GET', '/api/actions')")).toBe(true);
    expect(singletons('work/shared.ts', "import { dataProvider } from '../app/services';")).toBe(true);
    expect(singletons('app/hooks.ts', "import { session } from './services';")).toBe(false);
    expect(shellImports('layout/UserMenu.tsx', "import { leave } from '../admin/ImpersonateButton';")).toEqual([
      'layout/UserMenu.tsx -> admin',
    ]);
    expect(shellImports('app/features.ts', "import admin from '../admin/index';")).toEqual([]);
    expect(shellInternals('map/MapPage.tsx', "import { FEATURES } from '../app/features';")).toEqual([
      'map/MapPage.tsx -> app/features',
    ]);
    expect(shellInternals('records/grid/Cell.tsx', "import { PageHeader } from '../../layout/PageHeader';")).toEqual(
      [],
    );
  });
});
