/** A profiles file in a new temp folder (not created yet), and the input of a plain profile. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function tempProfilesFile(prefix: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, file: join(dir, 'data', 'profiles.json') };
}

export const profileInput = (name: string) => ({
  name,
  baseUrl: 'https://reports.example.com',
  allowInsecureHttp: false,
  demo: false,
});
