/**
 * "Export…": every report matching the list's search and filters, in every page, as CSV or
 * JSON. The core follows the pages (bounded) and answers the file's text; the app then shows
 * its save dialog (export:save), the preview downloads it. Offline, the core exports the cache
 * and the dialog says so before and after.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { ExportProgress } from '../../../shared/contract';
import type { ListQuery } from '../../../shared/model';
import { useToasts, useWriteBlockReason } from '../lib/appState';
import type { RendererMessageId as MessageId } from '../../../shared/i18n/messages';
import { call, CallError, errorOf, onEvent } from '../lib/bridge';
import { timeAgo } from '../lib/format';
import { saveExport } from '../lib/saveExport';
import { useWords, type RendererWords } from '../lib/i18n';
import { ErrorView } from './ErrorView';
import { Modal } from './Modal';

type Format = 'csv' | 'json';

const FORMATS: { value: Format; label: MessageId; hint: MessageId }[] = [
  { value: 'csv', label: 'export.format.csv', hint: 'export.format.csv.hint' },
  { value: 'json', label: 'export.format.json', hint: 'export.format.json.hint' },
];

function progressText(words: RendererWords, progress: ExportProgress | null): string {
  if (!progress) return words('export.starting');
  const { fetched, total, page, lastPage } = progress;
  if (total === null) return words('export.progress', { fetched });
  return lastPage === null
    ? words('export.progress_of', { fetched, total })
    : words('export.progress_of_pages', { fetched, total, page, lastPage });
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
  const words = useWords();
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
      const where = await saveExport(exported);
      if (where === null) {
        toasts.show(words('export.not_saved'));
      } else if (exported.source === 'cache') {
        toasts.show(
          words('export.saved_from_copy', {
            count: exported.count,
            ago: timeAgo(words, exported.fetchedAt),
            file: where,
          }),
        );
      } else {
        toasts.show(words('export.saved', { count: exported.count, file: where }));
      }
      onClose();
    } catch (thrown) {
      if (!mounted.current) return;
      if (thrown instanceof CallError && thrown.kind === 'cancelled') {
        toasts.show(words('export.cancelled'));
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
      title={words('export.title')}
      onClose={cancel}
      description={
        total !== null ? words('export.description_count', { total }) : words('export.description')
      }
    >
      <div className="modal-body">
        {offline && (
          <p className="notice" role="note">
            {words('export.offline_note')}
          </p>
        )}
        <fieldset className="format-choice" disabled={running} aria-describedby={`${groupId}-hint`}>
          <legend>{words('export.format')}</legend>
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
              {/* The format's name, then what it is for on a line of its own: a long hint wraps
                  under the name, never between the name and a dash. */}
              <span className="format-option">
                <span className="format-name">{words(option.label)}</span>
                <span className="muted">{words(option.hint)}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <p id={`${groupId}-hint`} className="muted">
          {words('export.privacy_note')}
        </p>
        {running && (
          <div className="export-progress">
            <progress
              max={progress?.total ?? undefined}
              value={progress?.total ? progress.fetched : undefined}
              aria-label={words('export.progress_label')}
            />
            <p role="status">{progressText(words, progress)}</p>
          </div>
        )}
      </div>
      {error !== null && <ErrorView error={error} title={words('export.failed')} />}
      <div className="modal-actions">
        <button type="button" className="button" onClick={cancel}>
          {words('dialog.cancel')}
        </button>
        <button type="button" className="button primary" onClick={() => void start()} disabled={running}>
          {running ? words('export.running') : words('export.start', { format })}
        </button>
      </div>
    </Modal>
  );
}
