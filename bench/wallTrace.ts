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
  /** The thread's CPU time inside the event, µs: what it cost, however long it was descheduled. */
  tdur?: number;
  args?: { name?: string };
}

export interface LongTaskSplit {
  /** Tasks over 50 ms on the page's main thread. */
  count: number;
  /** Of those, tasks whose own work (everything but waiting for the GPU) is over 50 ms. */
  ours: number;
  /** The longest own work of a task, ms. */
  maxOwnMs: number;
  /**
   * Of those, tasks whose main-thread CPU time is over 50 ms, and the most CPU a task took, ms.
   * Own work above counts the time a loaded 2-core machine (the server, SwiftShader's raster)
   * left the thread descheduled mid-task; CPU time is what the page's work itself cost.
   */
  oursCpu: number;
  maxOwnCpuMs: number;
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

type Trace = { traceEvents: TraceEvent[] } | TraceEvent[];

/** The complete events of the page's main thread (the busiest renderer's). */
function mainThreadEvents(trace: Trace): TraceEvent[] {
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
  return events.filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === main);
}

/** Where V8 runs our script (and collects its garbage), outermost first. */
const SCRIPT =
  /^(FunctionCall|RunMicrotasks|EvaluateScript|TimerFire|FireAnimationFrame|EventDispatch|MinorGC|MajorGC)$/;

/**
 * The main thread's CPU time in script (and its GC) in each whole second of the trace, ms. CPU
 * time, not wall time: on a loaded 2-core machine the thread is descheduled mid-script, which
 * the Performance API's ScriptDuration counts; and waiting for SwiftShader takes no CPU here.
 * With one update a second, each second is one update's cost.
 */
export function scriptCpuPerSecond(trace: Trace): number[] {
  const own = mainThreadEvents(trace).sort((a, b) => a.ts - b.ts);
  if (own.length === 0) return [];
  const start = own[0]!.ts;
  const seconds = Math.floor((Math.max(...own.map((e) => e.ts)) - start) / 1e6);
  const perSecond = Array.from({ length: seconds }, () => 0);
  let end = -Infinity;
  for (const e of own) {
    // Only the outermost: a function call inside a timer is already in the timer's time.
    if (!SCRIPT.test(e.name) || e.ts < end) continue;
    end = e.ts + (e.dur ?? 0);
    const second = Math.floor((e.ts - start) / 1e6);
    if (second < seconds) perSecond[second]! += (e.tdur ?? e.dur ?? 0) / 1000;
  }
  return perSecond.map((ms) => Math.round(ms * 10) / 10);
}

/**
 * Script CPU per update over each run of `width` seconds (one update a second). A main thread
 * that waited seconds for SwiftShader's readback runs the updates that queued meanwhile
 * together, so one second holds none and the next several: a window of a few seconds holds
 * about as many as it spans.
 */
export function perUpdateWindows(perSecond: readonly number[], width = 3): number[] {
  const out: number[] = [];
  for (let i = 0; i + width <= perSecond.length; i++) {
    let sum = 0;
    for (let j = i; j < i + width; j++) sum += perSecond[j]!;
    out.push(Math.round((sum / width) * 10) / 10);
  }
  return out;
}

/**
 * The mark the bench's page sets as each `house:status` batch comes in, followed by `:` and the
 * number of houses in it (bench/wall.ts).
 */
export const STATUS_MARK = 'roost-bench-status';

/**
 * Script CPU per update, over each run of `width` seconds: the window's script per house change
 * it took in (STATUS_MARK), times the changes the whole trace took in a second (one update a
 * second). SwiftShader's readback holds the main thread for 2–3 s, after which the updates
 * queued meanwhile run together: a window of 3 s then holds one such burst or two, and dividing
 * by its length (perUpdateWindows) counted 2.5 or 5 updates' work as 3. Windows that took in no
 * change are left out.
 */
export function scriptPerUpdateWindows(trace: Trace, width = 3): number[] {
  const perSecond = scriptCpuPerSecond(trace);
  const own = mainThreadEvents(trace);
  if (own.length === 0) return [];
  const start = Math.min(...own.map((e) => e.ts));
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const changes = perSecond.map(() => 0);
  for (const e of events) {
    if (!e.name.startsWith(`${STATUS_MARK}:`) || e.ph === 'e') continue;
    const second = Math.floor((e.ts - start) / 1e6);
    if (second >= 0 && second < changes.length)
      changes[second]! += Number(e.name.slice(STATUS_MARK.length + 1)) || 0;
  }
  const changesPerUpdate = changes.reduce((sum, n) => sum + n, 0) / changes.length;
  const out: number[] = [];
  for (let i = 0; i + width <= perSecond.length; i++) {
    let script = 0;
    let taken = 0;
    for (let j = i; j < i + width; j++) {
      script += perSecond[j]!;
      taken += changes[j]!;
    }
    if (taken > 0) out.push(Math.round(((script * changesPerUpdate) / taken) * 10) / 10);
  }
  return out;
}

export function splitLongTasks(trace: Trace): LongTaskSplit {
  const own = mainThreadEvents(trace);
  const tasks = own.filter((e) => e.name === TASK && (e.dur ?? 0) > LONG_TASK_US);
  const waits = own.filter((e) => GPU_WAIT.test(e.name));
  const span =
    own.length === 0 ? 0 : Math.max(...own.map((e) => e.ts)) - Math.min(...own.map((e) => e.ts));
  const result: LongTaskSplit = {
    count: tasks.length,
    ours: 0,
    maxOwnMs: 0,
    oursCpu: 0,
    maxOwnCpuMs: 0,
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
    // Waiting for the GPU process blocks the thread: it takes no CPU time.
    const cpuUs = task.tdur ?? ownUs;
    if (cpuUs > LONG_TASK_US) result.oursCpu += 1;
    result.maxOwnCpuMs = Math.max(result.maxOwnCpuMs, Math.round(cpuUs / 1000));
    if ((task.dur ?? 0) / 1000 > result.maxMs) {
      result.maxMs = Math.round((task.dur ?? 0) / 1000);
      result.gpuWaitPct = Math.round((waited / (task.dur ?? 1)) * 100);
    }
  }
  return result;
}
