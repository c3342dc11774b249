/**
 * Reads a Chromium performance trace (the JSON `browser.stopTracing()` gives) and says where the
 * page's main thread spent the time from navigation (or `fromMs` after it, a click) to `untilMs`
 * (the rows on screen): self time per trace event name, and the long tasks in order with their
 * biggest parts.
 */
interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time of a complete event, µs: what the thread ran, not how long it waited. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; functionName?: string; documentLoaderURL?: string } };
}

interface Span {
  name: string;
  cpu: number;
  start: number;
  end: number;
  self: number;
  children: Span[];
  detail: string;
}

const LONG_TASK_MS = Number(process.env.TRACE_TASK_MS ?? 3);

/** The main thread's spans (complete and begin/end events) nested by time. */
function spansOf(events: TraceEvent[]): Span[] {
  const flat: Span[] = [];
  const open: TraceEvent[] = [];
  for (const event of events) {
    const detail = event.args?.data?.url ?? event.args?.data?.functionName ?? '';
    if (event.ph === 'X' && event.dur !== undefined) {
      flat.push({
        name: event.name,
        cpu: event.tdur ?? 0,
        start: event.ts,
        end: event.ts + event.dur,
        self: 0,
        children: [],
        detail,
      });
    } else if (event.ph === 'B') {
      open.push(event);
    } else if (event.ph === 'E') {
      const begin = open.pop();
      if (begin)
        flat.push({
          name: begin.name,
          cpu: 0,
          start: begin.ts,
          end: event.ts,
          self: 0,
          children: [],
          detail,
        });
    }
  }
  flat.sort((a, b) => a.start - b.start || b.end - a.end);
  const roots: Span[] = [];
  const stack: Span[] = [];
  for (const span of flat) {
    while (stack.length > 0 && stack[stack.length - 1].end <= span.start) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent && span.end <= parent.end) parent.children.push(span);
    else roots.push(span);
    stack.push(span);
  }
  const fillSelf = (span: Span): void => {
    span.children.forEach(fillSelf);
    span.self = span.end - span.start - span.children.reduce((sum, c) => sum + (c.end - c.start), 0);
  };
  roots.forEach(fillSelf);
  return roots;
}

function selfTimes(spans: Span[], from: number, to: number, into = new Map<string, number>()) {
  for (const span of spans) {
    if (span.end < from || span.start > to) continue;
    into.set(span.name, (into.get(span.name) ?? 0) + span.self);
    selfTimes(span.children, from, to, into);
  }
  return into;
}

/** The page's navigation (an empty document's start, with no address, is not it). */
function navigationOf(events: TraceEvent[]): TraceEvent | undefined {
  return events.filter((e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL).at(-1);
}

const ms = (us: number) => (us / 1000).toFixed(1);

export function mainThreadBreakdown(
  trace: { traceEvents: TraceEvent[] } | TraceEvent[],
  untilMs: number,
  fromMs = 0,
): string {
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const navigation = navigationOf(events);
  if (!navigation) return '  (no navigationStart in the trace)\n';
  const thread = events.filter((e) => e.pid === navigation.pid && e.tid === navigation.tid);
  const spans = spansOf(thread);
  const from = navigation.ts + fromMs * 1000;
  const to = navigation.ts + untilMs * 1000;
  const lines: string[] = [];
  const totals = [...selfTimes(spans, from, to)].sort((a, b) => b[1] - a[1]);
  const busy = totals.reduce((sum, [, us]) => sum + us, 0);
  lines.push(`  main thread busy ${ms(busy)} of ${(untilMs - fromMs).toFixed(0)} ms; self time by event:`);
  for (const [name, us] of totals.filter(([, us]) => us >= 500))
    lines.push(`    ${ms(us).padStart(6)}  ${name}`);
  lines.push(`  tasks of ${LONG_TASK_MS} ms or more (start → end, ms after the start):`);
  for (const task of spans) {
    if (task.end < from || task.start > to || task.end - task.start < LONG_TASK_MS * 1000) continue;
    const parts = [...selfTimes([task], task.start, task.end)]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([name, us]) => `${name} ${ms(us)}`);
    lines.push(
      `    ${ms(task.start - from)} → ${ms(task.end - from)} (cpu ${ms(task.cpu)}): ${parts.join(', ')}`,
    );
    // What ran in it: the task's own children of 1 ms or more, with the script or function.
    for (const child of task.children.flatMap((c) => (c.name === 'RunTask' ? c.children : [c]))) {
      if (child.end - child.start < 1000) continue;
      const where = child.detail ? ` ${child.detail.replace(/^.*\//, '')}` : '';
      lines.push(`        ${ms(child.start - from)} +${ms(child.end - child.start)} ${child.name}${where}`);
    }
  }
  return lines.join('\n') + '\n';
}

/**
 * The CPU time (ms) the page's main thread ran its tasks from navigation (or `fromMs`) to `untilMs`: the
 * top-level tasks' thread time, which the other processes on a loaded machine do not inflate
 * the way they inflate wall time.
 */
export function mainThreadCpuMs(
  trace: { traceEvents: TraceEvent[] } | TraceEvent[],
  untilMs: number,
  fromMs = 0,
): number {
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const navigation = navigationOf(events);
  if (!navigation) return NaN;
  const from = navigation.ts + fromMs * 1000;
  const to = navigation.ts + untilMs * 1000;
  let cpu = 0;
  for (const event of events) {
    if (event.pid !== navigation.pid || event.tid !== navigation.tid) continue;
    if (event.name !== 'RunTask' || event.ph !== 'X' || event.tdur === undefined) continue;
    if (event.ts >= from && event.ts < to) cpu += event.tdur;
  }
  return cpu / 1000;
}
