// Renders build/icon.svg to the 1024×1024 build/icon.png that electron-builder turns into
// the platform icons (.icns, .ico, Linux PNGs). Run it after editing the SVG and commit both:
//   npx tsx scripts/render-icon.ts
// It uses Debian's Chromium through Playwright (no browser download).
import { chromium } from '@playwright/test';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_LAUNCH_OPTIONS } from '../tests/helpers/chromium';

const SIZE = 1024;
const svgPath = fileURLToPath(new URL('../build/icon.svg', import.meta.url));
const pngPath = fileURLToPath(new URL('../build/icon.png', import.meta.url));

const svg = await readFile(svgPath, 'utf8');
const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
  // Inline the SVG so the page needs no file:// or network access.
  await page.setContent(
    `<!doctype html><html><body style="margin:0;background:transparent">${svg}</body></html>`,
  );
  const png = await page.locator('svg').screenshot({ omitBackground: true, type: 'png' });
  await writeFile(pngPath, png);
  console.log(`render-icon: wrote ${pngPath} (${png.length} bytes)`);
} finally {
  await browser.close();
}
