/**
 * scripts/screenshots.mjs (`npm run screenshots`): which pictures the README shows and which
 * end-to-end specs take them. The run itself (a build and Chromium) is the lead's, once per round.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { e2eSpecs, picturesShown, specsTaking } from '../../../scripts/screenshots.mjs';

const projectDir = fileURLToPath(new URL('../../..', import.meta.url));
const readme = readFileSync(join(projectDir, 'README.md'), 'utf8');

describe('npm run screenshots', () => {
  it("finds the README's pictures, each once, in order", () => {
    expect(picturesShown(readme)).toEqual([
      'reports-light',
      'report-dark',
      'offline-light',
      'create-dark',
      'export-light',
      'bulk-dark',
      'overview-light',
      'shortcuts-dark',
    ]);
    expect(
      picturesShown('![a](docs/screenshots/a-dark.png) ![b](other/b.png) ![a](docs/screenshots/a-dark.png)'),
    ).toEqual(['a-dark']);
  });

  it('runs only the specs that take them, and every README picture is taken by one', () => {
    expect(specsTaking(picturesShown(readme), e2eSpecs())).toEqual({
      files: ['tests/e2e/a11y.spec.ts', 'tests/e2e/app.spec.ts', 'tests/e2e/exportBulkLinks.spec.ts'],
      untaken: [],
    });
  });

  it('names a picture no spec takes, matching the whole screenshot name', () => {
    const specs = [{ file: 'x.spec.ts', source: "await screenshotBoth(page, 'overview-short-window');" }];
    expect(specsTaking(['overview-light', 'overview-short-window-dark'], specs)).toEqual({
      files: ['x.spec.ts'],
      untaken: ['overview-light'],
    });
  });
});
