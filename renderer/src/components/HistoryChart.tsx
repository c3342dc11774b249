/**
 * History's chart (issue 27): per period, the URLs good / decent / bad at its end as a stacked
 * column, and beneath it the reports generated in it. Drawn in HTML (no chart library): columns
 * laid out along the reading direction, so the chart mirrors right to left with the page. Colour
 * is never alone: each result has a pattern of its own (the legend shows it) and the chosen
 * period is outlined and written out beneath.
 *
 * The chart is one focusable element: ←/→ move between periods as the eye sees them (arrowKeys),
 * Home/End go to the first and last, Enter opens the URLs as they stood at the period's end.
 * Each move is announced in the app's live region: "Week of Nov 3, 2025: 120 good, 30 decent,
 * 12 bad; 14 reports generated".
 */
import { useId, type KeyboardEvent } from 'react';
import type { HistoryPeriod } from '../../../shared/contract';
import type { PeriodKind } from '../../../shared/calendar';
import { REPORT_RESULTS } from '../../../shared/model';
import { announce } from '../lib/announce';
import { layoutDirection, readingStep } from '../lib/arrowKeys';
import { tallyTotal } from '../lib/history';
import { useWords, type RendererWords } from '../lib/i18n';
import { resultLabel } from '../lib/reportWords';

/** "Week of Nov 3, 2025", "Nov 3, 2025", "November 2025", in the window's language. */
export function periodLabel(
  words: RendererWords,
  kind: PeriodKind,
  period: Pick<HistoryPeriod, 'start'>,
): string {
  return words('history.period', { kind, start: new Date(period.start) });
}

/** One period's numbers in a sentence: what the live region says and the line under the chart shows. */
export function periodSentence(words: RendererWords, kind: PeriodKind, period: HistoryPeriod): string {
  return words('history.chart.point', {
    period: periodLabel(words, kind, period),
    good: period.urls.good,
    decent: period.urls.decent,
    bad: period.urls.bad,
    generated: tallyTotal(period.generated),
  });
}

export function HistoryLegend() {
  const words = useWords();
  return (
    <ul className="history-legend" aria-label={words('history.legend')}>
      {[...REPORT_RESULTS].reverse().map((result) => (
        <li key={result}>
          <span className={`history-swatch history-${result}`} aria-hidden="true" />
          {resultLabel(words, result)}
        </li>
      ))}
      <li>
        <span className="history-swatch history-generated" aria-hidden="true" />
        {words('history.legend.generated')}
      </li>
    </ul>
  );
}

export function HistoryChart({
  kind,
  periods,
  selected,
  onSelect,
  onOpen,
}: {
  kind: PeriodKind;
  periods: HistoryPeriod[];
  selected: number;
  onSelect: (index: number) => void;
  /** Enter (or a double click) on a period: its URLs. */
  onOpen: (index: number) => void;
}) {
  const words = useWords();
  const hintId = useId();
  const maxUrls = Math.max(1, ...periods.map((p) => tallyTotal(p.urls)));
  const maxGenerated = Math.max(1, ...periods.map((p) => tallyTotal(p.generated)));
  const current = periods[selected];

  function select(index: number) {
    const next = Math.max(0, Math.min(periods.length - 1, index));
    onSelect(next);
    announce(periodSentence(words, kind, periods[next]));
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const step = readingStep(event.key, layoutDirection(event.currentTarget));
    if (step !== null) select(selected + step);
    else if (event.key === 'Home') select(0);
    else if (event.key === 'End') select(periods.length - 1);
    else if (event.key === 'Enter') onOpen(selected);
    else return;
    event.preventDefault();
  }

  const percent = (value: number, max: number) => `${(value / max) * 100}%`;
  return (
    <figure className="history-figure">
      <HistoryLegend />
      <div
        className="history-chart"
        role="group"
        tabIndex={0}
        aria-label={words('history.chart.label')}
        aria-describedby={hintId}
        onKeyDown={onKeyDown}
        data-periods={periods.length}
      >
        <span className="history-axis-max muted" aria-hidden="true">
          {words('history.chart.max_urls', { count: maxUrls })}
        </span>
        <div className="history-columns" aria-hidden="true">
          {periods.map((period, index) => (
            <div
              key={period.start}
              className={index === selected ? 'history-column selected' : 'history-column'}
              onClick={() => select(index)}
              onDoubleClick={() => onOpen(index)}
            >
              <div className="history-stack" style={{ blockSize: percent(tallyTotal(period.urls), maxUrls) }}>
                {REPORT_RESULTS.map((result) =>
                  period.urls[result] > 0 ? (
                    <span
                      key={result}
                      className={`history-${result}`}
                      style={{ flexGrow: period.urls[result] }}
                    />
                  ) : null,
                )}
              </div>
            </div>
          ))}
        </div>
        <div className="history-columns history-generated-row" aria-hidden="true">
          {periods.map((period, index) => (
            <div
              key={period.start}
              className={index === selected ? 'history-column selected' : 'history-column'}
              onClick={() => select(index)}
            >
              <span
                className="history-generated"
                style={{ blockSize: percent(tallyTotal(period.generated), maxGenerated) }}
              />
            </div>
          ))}
        </div>
        <div className="history-axis muted" aria-hidden="true">
          <span>{periodLabel(words, kind, periods[0])}</span>
          <span>{periodLabel(words, kind, periods[periods.length - 1])}</span>
        </div>
      </div>
      <figcaption>
        <span id={hintId} className="muted history-keys">
          {words('history.chart.keys')}
        </span>
        {current && <strong className="history-current">{periodSentence(words, kind, current)}</strong>}
      </figcaption>
    </figure>
  );
}
