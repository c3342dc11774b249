/**
 * Timing a navigation to the first 100 rows without the bench in the page's way (issue 28).
 *
 * Until issue 28 the figure was read by Playwright's `waitForFunction`: once the page's load event
 * had reached this process, Playwright compiled and ran its injected script in the page (≈ 7 ms
 * of the page's main thread on this machine, in the middle of the page's own start: after its
 * load event, before its rows) and then polled at animation frames, seeing the rows one frame or
 * more after the page had drawn them. Both costs grow with a slower processor, and the first is
 * paid by the page itself: the figure measured the bench as much as the app.
 *
 * Now a script installed before the page's own (ROWS_REPORT) watches each animation frame from
 * the navigation on; at the first frame that has the 100 rows it notes the time (`seen`) and,
 * after that frame's rendering update (style, layout, paint: a message posted from the frame runs
 * once it is done), the time they are painted (`painted`). It reports both through a binding
 * (`__reportDeskRows`, Playwright's exposeBinding: a message to this process, nothing run in the
 * page), and the bench does not touch the page until then. Times are ms after the navigation's
 * start, on the page's own clock.
 */
import type { BrowserContext, Page } from '@playwright/test';

export const ROWS = 'table[aria-label="Reports"] tbody tr.clickable';
export const PER_PAGE = 100;
const BINDING = '__reportDeskRows';
/** A page without the rows (Settings in the language bench) stops looking after this long. */
const WATCH_MS = 30_000;

export const ROWS_REPORT = `(() => {
  const check = () => {
    if (document.querySelectorAll(${JSON.stringify(ROWS)}).length === ${PER_PAGE}) {
      const seen = performance.now();
      const afterFrame = new MessageChannel();
      afterFrame.port1.onmessage = () => globalThis.${BINDING}({ seen, painted: performance.now() });
      afterFrame.port2.postMessage(null);
    } else if (performance.now() < ${WATCH_MS}) requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

export interface RowsTiming {
  /** The first animation frame whose DOM has the 100 rows (before that frame's layout and paint). */
  seen: number;
  /** That frame's rendering update done: the rows painted. The bench's figure. */
  painted: number;
}

/** The rows' timings of each page of a context, as the pages report them. */
export class RowsWatch {
  private readonly waiting = new Map<Page, (timing: RowsTiming) => void>();

  private constructor() {}

  /** Installs the report in every page of `context` (before its own scripts) and listens to it. */
  static async install(context: BrowserContext): Promise<RowsWatch> {
    const watch = new RowsWatch();
    await context.exposeBinding(BINDING, ({ page }, timing: RowsTiming) => {
      watch.waiting.get(page)?.(timing);
      watch.waiting.delete(page);
    });
    await context.addInitScript({ content: ROWS_REPORT });
    return watch;
  }

  /** The next report of `page`: set before its navigation starts. */
  next(page: Page, timeoutMs: number): Promise<RowsTiming> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(page);
        reject(new Error(`The page did not show ${PER_PAGE} rows within ${timeoutMs} ms.`));
      }, timeoutMs);
      this.waiting.set(page, (timing) => {
        clearTimeout(timer);
        resolve(timing);
      });
    });
  }
}
