/**
 * Long tasks of a Chromium trace, split into what our page did and what it waited for. On
 * SwiftShader (software WebGL) the compositor reads every redrawn WebGL canvas back from the GPU
 * process (`GLES2::ReadPixels`), and the main thread waits for the software raster, up to seconds
 * on a loaded machine. A real GPU does not make it wait so; the wall's goal is about the rest:
 * script, style, layout and garbage collection inside a task.
 */

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string };
}

export interface LongTaskSplit {
  /** Tasks over 50 ms on the page's main thread. */
  count: number;
  /** Of those, tasks whose own work (everything but waiting for the GPU) is over 50 ms. */
  ours: number;
  /** The longest own work of a task, ms. */
  maxOwnMs: number;
  /** The longest task, ms, and its share spent waiting for the GPU process. */
  maxMs: number;
  gpuWaitPct: number;
  /** Length of the trace, s. */
  seconds: number;
}

const LONG_TASK_US = 50_000;
const TASK = 'ThreadControllerImpl::RunTask';
/** The main thread blocked on the GPU process's command buffer (a readback or a finish). */
const GPU_WAIT = /WaitForGetOffset|WaitForToken|WaitSyncToken|CommandBufferHelper::Finish/;

/** Total length of the union of intervals (a wait nested in another counts once). */
function unionUs(intervals: [number, number][]): number {
  intervals.sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = -Infinity;
  for (const [start, stop] of intervals) {
    if (stop <= end) continue;
    total += stop - Math.max(start, end);
    end = stop;
  }
  return total;
}

export function splitLongTasks(trace: { traceEvents: TraceEvent[] } | TraceEvent[]): LongTaskSplit {
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  // The page's renderer is the busiest one (about:blank renderers idle).
  const busy = new Map<string, number>();
  for (const e of events)
    if (e.ph === 'X' && e.name === TASK && mains.has(`${e.pid}:${e.tid}`))
      busy.set(`${e.pid}:${e.tid}`, (busy.get(`${e.pid}:${e.tid}`) ?? 0) + (e.dur ?? 0));
  const main = [...busy].sort((a, b) => b[1] - a[1])[0]?.[0];
  const own = events.filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === main);
  const tasks = own.filter((e) => e.name === TASK && (e.dur ?? 0) > LONG_TASK_US);
  const waits = own.filter((e) => GPU_WAIT.test(e.name));
  const span =
    own.length === 0 ? 0 : Math.max(...own.map((e) => e.ts)) - Math.min(...own.map((e) => e.ts));
  const result: LongTaskSplit = {
    count: tasks.length,
    ours: 0,
    maxOwnMs: 0,
    maxMs: 0,
    gpuWaitPct: 0,
    seconds: Math.round(span / 1e5) / 10,
  };
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0);
    const waited = unionUs(
      waits
        .filter((w) => w.ts >= task.ts && w.ts < end)
        .map((w): [number, number] => [w.ts, Math.min(end, w.ts + (w.dur ?? 0))]),
    );
    const ownUs = (task.dur ?? 0) - waited;
    if (ownUs > LONG_TASK_US) result.ours += 1;
    result.maxOwnMs = Math.max(result.maxOwnMs, Math.round(ownUs / 1000));
    if ((task.dur ?? 0) / 1000 > result.maxMs) {
      result.maxMs = Math.round((task.dur ?? 0) / 1000);
      result.gpuWaitPct = Math.round((waited / (task.dur ?? 1)) * 100);
    }
  }
  return result;
}
