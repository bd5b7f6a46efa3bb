import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Gateway, type Logger, type LogLevel } from '../../src/index.js';
import { BACKUP, BASE, KEY } from '../helpers/fixtures.js';
import { useMswServer } from '../helpers/msw.js';

const server = useMswServer();
const modelsURL = `${BASE}/models`;
const list = { object: 'list', data: [] };

/** A logger that records every line with its level. */
function recorder() {
  const lines: Array<[string, string]> = [];
  const logger: Logger = {
    error: (m) => lines.push(['error', m]),
    warn: (m) => lines.push(['warn', m]),
    info: (m) => lines.push(['info', m]),
    debug: (m) => lines.push(['debug', m]),
  };
  return { lines, logger };
}

/** Main answers 503 echoing the Authorization header; the backup answers 200. */
function flakyMain() {
  server.use(
    http.get(modelsURL, ({ request }) => HttpResponse.json({ error: { message: `down (${request.headers.get('authorization')})` } }, { status: 503, headers: { 'x-echo': KEY } })),
    http.get(`${BACKUP}/models`, () => HttpResponse.json(list, { headers: { 'x-request-id': 'req_b' } })),
  );
}

/** Lines logged before the formatter chunk loaded are queued; they are written once it has. */
const formatterLoaded = async () => {
  await import('../../src/core/log-lines.js');
  await Promise.resolve();
};

const run = async (logLevel: LogLevel | undefined, env?: string) => {
  if (env !== undefined) vi.stubEnv('GATEWAY_LOG', env);
  const { lines, logger } = recorder();
  flakyMain();
  await new Gateway({ apiKey: KEY, baseURL: BASE, backupBaseURL: BACKUP, logger, ...(logLevel ? { logLevel } : {}) }).models.list();
  await formatterLoaded();
  return lines;
};

describe('logging', () => {
  // vitest.config.ts turns logging off for the rest of the suite; here the default applies.
  beforeEach(() => {
    vi.stubEnv('GATEWAY_LOG', undefined);
  });

  it('debug logs each attempt (method, URL, status, duration), retries and failovers', async () => {
    const lines = await run('debug');
    expect(lines.map(([level]) => level)).toEqual(['debug', 'debug', 'info', 'info', 'debug', 'debug']);
    expect(lines[0]?.[1]).toBe(`[unified-gateway] → GET ${modelsURL} (attempt 1)`);
    expect(lines[1]?.[1]).toMatch(new RegExp(`^\\[unified-gateway\\] ← 503 GET ${modelsURL} in \\d+ ms`));
    expect(lines[2]?.[1]).toMatch(/retry 1 of GET .* in 0 ms after 503 \(next on http:\/\/backup\.test\/v1\)/);
    expect(lines[3]?.[1]).toBe(`[unified-gateway] failover ${BASE} -> ${BACKUP} after 503`);
    expect(lines[5]?.[1]).toMatch(/← 200 GET http:\/\/backup\.test\/v1\/models in \d+ ms \(request id req_b\)/);
  });

  it('info logs retries and failovers only; warn (the default) nothing for a call that succeeded', async () => {
    expect((await run('info')).map(([level]) => level)).toEqual(['info', 'info']);
    expect(await run(undefined)).toEqual([]);
    expect(await run('off')).toEqual([]);
  });

  it('warn logs a call that failed after its retries', async () => {
    server.use(http.get(modelsURL, () => HttpResponse.json({ error: { message: 'still down' } }, { status: 500, headers: { 'retry-after': '0' } })));
    const { lines, logger } = recorder();
    await new Gateway({ apiKey: KEY, baseURL: BASE, logger, maxRetries: 1 }).models.list().catch(() => undefined);
    await formatterLoaded();
    expect(lines).toEqual([['warn', expect.stringMatching(/GET .*models failed after 2 attempts: 500 still down/)]]);
  });

  it('reads the level from GATEWAY_LOG, and rejects an unknown level naming where it came from', async () => {
    expect((await run(undefined, 'info')).length).toBe(2);
    vi.stubEnv('GATEWAY_LOG', 'verbose');
    expect(() => new Gateway({ apiKey: KEY, baseURL: BASE })).toThrow(expect.objectContaining({ field: 'GATEWAY_LOG' }) as Error);
    expect(() => new Gateway({ apiKey: KEY, baseURL: BASE, logLevel: 'loud' as never })).toThrow(expect.objectContaining({ field: 'logLevel' }) as Error);
    expect(() => new Gateway({ apiKey: KEY, baseURL: BASE, logLevel: 'warn', logger: { warn: () => undefined } as never })).toThrow(/error, warn, info and debug/);
  });

  it('never writes the key or the Authorization header, even when the server echoes them', async () => {
    const lines = await run('debug');
    const all = lines.map(([, m]) => m).join('\n');
    expect(all).not.toContain(KEY);
    expect(all.toLowerCase()).not.toContain('bearer');
  });

  it('logs to console by default, beside the hooks, on the same events', async () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    const onRequest = vi.fn();
    server.use(http.get(modelsURL, () => HttpResponse.json(list)));
    await new Gateway({ apiKey: KEY, baseURL: BASE, logLevel: 'debug', hooks: { onRequest } }).models.list();
    await formatterLoaded();
    expect(onRequest).toHaveBeenCalledTimes(1);
    expect(debug).toHaveBeenCalledTimes(2);
  });
});
