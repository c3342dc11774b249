/** Searches every file under a folder for secret values; answers where each was found. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

/** Byte-level search (SQLite pages, WAL, JSON, logs alike), in UTF-8 and UTF-16LE. */
export function findSecrets(dir: string, secrets: string[], extraText: string[] = []): string[] {
  const hits: string[] = [];
  const files = filesUnder(dir);
  for (const secret of secrets) {
    const needles = [Buffer.from(secret, 'utf8'), Buffer.from(secret, 'utf16le')];
    for (const file of files) {
      const bytes = readFileSync(file);
      if (needles.some((n) => bytes.includes(n))) hits.push(`${secret.slice(0, 3)}… in ${file}`);
    }
    extraText.forEach((text, i) => {
      if (text.includes(secret)) hits.push(`${secret.slice(0, 3)}… in text #${i}`);
    });
  }
  return hits;
}
