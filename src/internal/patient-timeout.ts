/** How late a timer may fire before the event loop counts as having been busy. */
const LATE_MS = 50;

/**
 * Calls `fire` once `ms` have passed while the process could have done something else. A timer
 * that fires late (a long synchronous task held the event loop) would count that task's time
 * as the operation's, although its answer may have arrived meanwhile, unread: then the timer
 * re-arms once, for the time it lost (at most `ms`), so the answer is read first. A timer that
 * fires on time fires. Returns what cancels it.
 */
export function patientTimeout(fire: () => void, ms: number): () => void {
  const due = Date.now() + ms;
  let timer = setTimeout(() => {
    const late = Date.now() - due;
    if (late <= LATE_MS) return fire();
    timer = setTimeout(fire, Math.min(late, ms));
  }, ms);
  return () => clearTimeout(timer);
}
