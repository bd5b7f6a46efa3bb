/** How late a timer may fire before the event loop counts as having been busy. */
const LATE_MS = 50;

interface LoopUse {
  idle: number;
  active: number;
}
type Performance = { eventLoopUtilization?: (since?: LoopUse) => LoopUse };
/**
 * Node's measure of the event loop (`performance.eventLoopUtilization`, on Node's global
 * `performance`; absent in browsers, Deno and edge workers): how long the loop sat idle, ready
 * to read an answer, and how long it ran code, since a given reading. Undefined where there is
 * none, or where the global `performance` is no longer the one loaded with (fake timers replace
 * it, and the clock they move by hand reads as a busy loop).
 */
const perf = (globalThis as { performance?: Performance }).performance;
const measure = perf?.eventLoopUtilization;
function loopUse(since?: LoopUse): LoopUse | undefined {
  return typeof measure === 'function' && (globalThis as { performance?: Performance }).performance === perf ? measure.call(perf, since) : undefined;
}

/**
 * The time a timer's window lost to a busy process: how late it fired, or, where Node measures
 * the loop and the loop was busy for most of the window, what the window lacked of idle time
 * (a task that held the loop from the start leaves the timer barely late, yet an operation had
 * no moment to go out: node-redis writes a command in a `setImmediate`). A clock moved by hand
 * (fake timers) is judged by lateness alone.
 */
function timeLost(ms: number, late: number, since: LoopUse | undefined): number {
  const use = since && loopUse(since);
  // A loop that saw far less time pass than the timer waited for: the timers were moved by hand (fake timers that leave `performance` alone).
  if (!use || use.idle >= ms / 2 || use.idle + use.active < ms / 2) return late;
  return Math.max(late, ms - use.idle);
}

/**
 * Calls `fire` once `ms` have passed while the process could have done something else. A
 * timer whose window a long synchronous task took (it held the event loop) would count that
 * task's time as the operation's, although its answer may have arrived meanwhile, unread, or
 * its request was not written yet: then the timer waits once more, for the time lost (at most
 * `ms`), so the answer is read first. A timer whose window the process had mostly free fires.
 * Returns what cancels it.
 */
export function patientTimeout(fire: () => void, ms: number): () => void {
  const due = Date.now() + ms;
  const since = loopUse();
  let timer = setTimeout(() => {
    const lost = timeLost(ms, Date.now() - due, since);
    if (lost <= LATE_MS && lost < ms / 2) return fire();
    timer = setTimeout(fire, Math.min(lost, ms));
  }, ms);
  return () => clearTimeout(timer);
}
