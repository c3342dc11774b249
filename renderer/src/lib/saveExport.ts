/**
 * Saves an exported file (ExportResult): through the app's save dialog (`export:save`), or in the
 * preview, whose bridge takes no large bodies, as a browser download. Answers where it went, or
 * null when the user cancelled the dialog. The list's export and history's exports share it.
 */
import type { ExportResult } from '../../../shared/contract';
import { call } from './bridge';

export async function saveExport(result: ExportResult): Promise<string | null> {
  if (result.saveBy === 'dialog') {
    const saved = await call('export:save', {
      fileName: result.fileName,
      format: result.format,
      content: result.content,
    });
    if (!saved.download) return saved.path;
  }
  const type = result.format === 'csv' ? 'text/csv;charset=utf-8' : 'application/json';
  const url = URL.createObjectURL(new Blob([result.content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = result.fileName;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return result.fileName;
}
