/** A timer that does not keep a process alive (Node's `unref`; elsewhere timers never do). */
export function unref(timer: ReturnType<typeof setTimeout>): ReturnType<typeof setTimeout> {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}
