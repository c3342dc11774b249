/**
 * A strict RFC 4180 reader for the tests: quoted fields with doubled quotes, CRLF records.
 * Written independently of the exporter, so a test reads its files back as a spreadsheet would.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i++;
      } else {
        field += c;
        i++;
      }
    } else if (c === '"') {
      if (field !== '') throw new Error(`A quote inside an unquoted field at ${i}.`);
      quoted = true;
      i++;
    } else if (c === ',') {
      row.push(field);
      field = '';
      i++;
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 2;
    } else if (c === '\n' || c === '\r') {
      throw new Error(`A bare line break at ${i}: records end with CRLF.`);
    } else {
      field += c;
      i++;
    }
  }
  if (quoted) throw new Error('The file ends inside a quoted field.');
  if (field !== '' || row.length > 0) throw new Error('The last record has no CRLF.');
  return rows;
}

/** Rows as objects keyed by the header row. */
export function csvRecords(text: string): { header: string[]; records: Record<string, string>[] } {
  const [header, ...rows] = parseCsv(text);
  for (const row of rows)
    if (row.length !== header.length) throw new Error('A row with a wrong field count.');
  return { header, records: rows.map((row) => Object.fromEntries(header.map((h, i) => [h, row[i]]))) };
}
