/**
 * Draws the installed app's icons (public/icon-*.png) from public/app-icon.svg with the machine's Chromium, so the
 * PNGs the web app manifest names are made here, never fetched. Run after changing the SVG:
 * `npx tsx src/build/rasterise-icons.ts` (CHROMIUM_PATH when Chromium is not at /usr/bin/chromium).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from '@playwright/test';

const PUBLIC = path.resolve(import.meta.dirname, '../../public');
/** Sizes and names the manifest (vite.config.ts) and index.html refer to. */
const ICONS = [
  { file: 'icon-192.png', size: 192, padding: 0 },
  { file: 'icon-512.png', size: 512, padding: 0 },
  // Maskable: the launcher may crop to a circle, so the drawing keeps inside the middle 80%.
  { file: 'icon-maskable-512.png', size: 512, padding: 0.1 },
  { file: 'apple-touch-icon.png', size: 180, padding: 0 },
];

const svg = await readFile(path.join(PUBLIC, 'app-icon.svg'), 'utf8');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    const inset = Math.round(icon.size * icon.padding);
    await page.setContent(
      `<html><body style="margin:0;background:#1f5f8b"><div style="padding:${inset}px;width:${icon.size - 2 * inset}px;height:${icon.size - 2 * inset}px">${svg.replace('<svg ', '<svg width="100%" height="100%" ')}</div></body></html>`,
    );
    await page.screenshot({ path: path.join(PUBLIC, icon.file), omitBackground: false });
    await page.close();
  }
} finally {
  await browser.close();
}
