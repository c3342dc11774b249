/** Saves one of history's files (the chart's numbers, a compare) through the exporter's save flow. */
import { useState } from 'react';
import type { ChannelInput } from '../../../shared/contract';
import { useToasts } from './appState';
import { call, errorOf } from './bridge';
import { errorText } from './errorWords';
import { useWords } from './i18n';
import { saveExport } from './saveExport';

export type HistoryExportInput = ChannelInput<'history:export'>;

/** `run(input)` exports and saves, saying where in a message; `busy` while it runs. */
export function useHistoryExport() {
  const words = useWords();
  const toasts = useToasts();
  const [busy, setBusy] = useState(false);
  async function run(input: HistoryExportInput) {
    setBusy(true);
    try {
      const exported = await call('history:export', input);
      const where = await saveExport(exported);
      toasts.show(
        where === null
          ? words('export.not_saved')
          : words('history.export.saved', { count: exported.count, file: where }),
      );
    } catch (thrown) {
      toasts.show(errorText(words, errorOf(thrown)), 'error');
    } finally {
      setBusy(false);
    }
  }
  return { run, busy };
}
