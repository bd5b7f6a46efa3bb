/**
 * Reads an environment variable where the runtime has one (Node, Bun, Deno with
 * `--allow-env`); returns `undefined` in browsers and edge workers without throwing.
 */
export function readEnv(name: string): string | undefined {
  const g = globalThis as { process?: { env?: Record<string, string | undefined> }; Deno?: { env?: { get?(k: string): string | undefined } } };
  try {
    const value = g.process?.env?.[name] ?? g.Deno?.env?.get?.(name);
    return value?.trim() || undefined;
  } catch {
    // Deno without --allow-env throws; treat as unset.
    return undefined;
  }
}

/** True in a browser main thread or web worker (not in Node, Deno, Bun or edge runtimes that mimic `window`). */
export function isBrowserLike(): boolean {
  const g = globalThis as { window?: unknown; document?: unknown; importScripts?: unknown; process?: { versions?: { node?: string } }; Deno?: unknown; Bun?: unknown };
  if (g.process?.versions?.node || g.Deno || g.Bun) return false;
  return (typeof g.window !== 'undefined' && typeof g.document !== 'undefined') || typeof g.importScripts === 'function';
}
