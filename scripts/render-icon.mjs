// Renders build/icon.svg to the 1024×1024 build/icon.png that electron-builder turns into
// the platform icons (.icns, .ico, Linux PNGs). Run it after editing the SVG and commit both:
//   node scripts/render-icon.mjs
// It uses Debian's Chromium through playwright-core (no browser download).
import { chromium } from 'playwright-core';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const SIZE = 1024;
const svgPath = fileURLToPath(new URL('../build/icon.svg', import.meta.url));
const pngPath = fileURLToPath(new URL('../build/icon.png', import.meta.url));

const svg = await readFile(svgPath, 'utf8');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
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
