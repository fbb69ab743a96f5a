import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

interface ManifestChunk {
  file: string;
  name?: string;
  isEntry?: boolean;
  imports?: string[];
}

/** The chunk group of the signed-in shell's first page, the layout and the dashboard (vite.config.ts). */
const SHELL_GROUP = 'shell';

let cached: { mtimeMs: number; root: string; files: string[] } | null = null;

/**
 * The scripts of the signed-in shell, from the build's manifest (dist/client/.vite/manifest.json), for the page of a
 * signed-in person to name in its `Link` header, so the browser fetches them while the first chunk compiles. Read again when the build changes (the
 * client is served from disk, a rebuild without a restart); empty without a build or manifest.
 */
export function shellScripts(root: string): string[] {
  const file = path.join(root, '.vite', 'manifest.json');
  try {
    const { mtimeMs } = statSync(file);
    if (cached && cached.root === root && cached.mtimeMs === mtimeMs) return cached.files;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
    const files: string[] = [];
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || files.includes(`/${chunk.file}`)) return;
      files.push(`/${chunk.file}`);
      // The entry chunk is on the page already; the shared chunks the shell imports are not.
      for (const imported of chunk.imports ?? []) if (!manifest[imported]?.isEntry) visit(imported);
    };
    const shell = Object.keys(manifest).find((key) => manifest[key].name === SHELL_GROUP && !manifest[key].isEntry);
    if (shell) visit(shell);
    cached = { mtimeMs, root, files };
    return files;
  } catch {
    return [];
  }
}
