/**
 * Plants reports whose fields look like spreadsheet formulas (and need CSV quoting) in the
 * reference service's data file, before the service starts or after it stops: the service's
 * API cannot produce such projects, and the exports must neutralise them all the same.
 */
import { readFileSync, writeFileSync } from 'node:fs';

export const TRICKY_PROJECTS = [
  '=HYPERLINK("http://evil.example","x")',
  '+1+2',
  '-2+3',
  '@SUM(A1)',
  '\tTAB',
  'a,"b"',
];

interface DataFile {
  accounts: Record<string, { id: number; project: string | null; url: string }[]>;
}

/** Gives the first reports of the account the tricky projects; answers their ids. */
export function plantTrickyReports(dataFile: string, accountId: string | number): string[] {
  const data = JSON.parse(readFileSync(dataFile, 'utf8')) as DataFile;
  const reports = data.accounts[String(accountId)];
  if (!reports || reports.length < TRICKY_PROJECTS.length) throw new Error('Not enough reports to plant in.');
  const ids: string[] = [];
  TRICKY_PROJECTS.forEach((project, i) => {
    reports[i].project = project;
    ids.push(String(reports[i].id));
  });
  writeFileSync(dataFile, JSON.stringify(data));
  return ids;
}
