/**
 * "Export…": every report matching the list's search and filters, in every page, as CSV or
 * JSON. The core follows the pages (bounded) and answers the file's text; the app then shows
 * its save dialog (export:save), the preview downloads it. Offline, the core exports the cache
 * and the dialog says so before and after.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { ExportProgress, ExportResult } from '../../../shared/contract';
import type { ListQuery } from '../../../shared/model';
import { useToasts, useWriteBlockReason } from '../lib/appState';
import { call, CallError, errorOf, onEvent } from '../lib/bridge';
import { ageOf } from '../lib/format';
import { ErrorView } from './ErrorView';
import { Modal } from './Modal';

type Format = 'csv' | 'json';

const FORMATS: { value: Format; label: string; hint: string }[] = [
  { value: 'csv', label: 'CSV', hint: 'for spreadsheets; every field the service sent, one column each' },
  { value: 'json', label: 'JSON', hint: 'for scripts; the reports exactly as the service sent them' },
];

/** Saves through the app's dialog, or (the preview) as a browser download. Answers where. */
async function save(result: ExportResult): Promise<string | null> {
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

function progressText(progress: ExportProgress | null): string {
  if (!progress) return 'Starting the export…';
  const of = progress.total !== null ? ` of ${progress.total}` : '';
  const page = progress.lastPage !== null ? ` (page ${progress.page} of ${progress.lastPage})` : '';
  return `Fetched ${progress.fetched}${of} reports${page}…`;
}

export function ExportDialog({
  query,
  total,
  onClose,
}: {
  /** The list's query; its page and page size are the exporter's business. */
  query: ListQuery;
  total: number | null;
  onClose: () => void;
}) {
  const toasts = useToasts();
  const offline = useWriteBlockReason() !== null;
  const [format, setFormat] = useState<Format>('csv');
  const [running, setRunning] = useState(false);
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const [error, setError] = useState<unknown>(null);
  const mounted = useRef(true);
  const groupId = useId();
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => onEvent('export:progress', (p) => setProgress(p)), []);

  async function start() {
    setRunning(true);
    setError(null);
    setProgress(null);
    const { search, search_by, project, result, sort_by, sort } = query;
    try {
      const exported = await call('reports:export', {
        query: { search, search_by, project, result, sort_by, sort },
        format,
      });
      const where = await save(exported);
      if (where === null) {
        toasts.show('The export was not saved.');
      } else {
        const from =
          exported.source === 'cache'
            ? ` from the offline copy saved ${ageOf(exported.fetchedAt)} ago (the service could not be reached)`
            : '';
        toasts.show(
          `Exported ${exported.count} report${exported.count === 1 ? '' : 's'}${from} to ${where}.`,
        );
      }
      onClose();
    } catch (thrown) {
      if (!mounted.current) return;
      if (thrown instanceof CallError && thrown.kind === 'cancelled') {
        toasts.show('The export was cancelled; nothing was saved.');
        onClose();
        return;
      }
      setError(thrown);
      setRunning(false);
    }
  }

  function cancel() {
    if (running) void call('reports:cancelExport').catch((thrown) => setError(errorOf(thrown)));
    else onClose();
  }

  return (
    <Modal
      title="Export reports"
      onClose={cancel}
      description={`Every report that matches the current search and filters${
        total !== null ? ` (${total})` : ''
      } is exported, from every page — not only the one on screen.`}
    >
      <div className="modal-body">
        {offline && (
          <p className="notice" role="note">
            The Report Service cannot be reached: the export comes from the offline copy, which may be
            incomplete or out of date.
          </p>
        )}
        <fieldset className="format-choice" disabled={running} aria-describedby={`${groupId}-hint`}>
          <legend>Format</legend>
          {FORMATS.map((option) => (
            <label key={option.value} className="radio">
              <input
                type="radio"
                name={`${groupId}-format`}
                value={option.value}
                checked={format === option.value}
                onChange={() => setFormat(option.value)}
                data-autofocus={format === option.value ? true : undefined}
              />
              {option.label}
              <span className="muted"> — {option.hint}</span>
            </label>
          ))}
        </fieldset>
        <p id={`${groupId}-hint`} className="muted">
          The file may hold private report addresses: keep it somewhere only you can read.
        </p>
        {running && (
          <div className="export-progress">
            <progress
              max={progress?.total ?? undefined}
              value={progress?.total ? progress.fetched : undefined}
              aria-label="Export progress"
            />
            <p role="status">{progressText(progress)}</p>
          </div>
        )}
      </div>
      {error !== null && <ErrorView error={error} title="The export failed; nothing was saved." />}
      <div className="modal-actions">
        <button type="button" className="button" onClick={cancel}>
          Cancel
        </button>
        <button type="button" className="button primary" onClick={() => void start()} disabled={running}>
          {running ? 'Exporting…' : `Export ${format.toUpperCase()}`}
        </button>
      </div>
    </Modal>
  );
}
