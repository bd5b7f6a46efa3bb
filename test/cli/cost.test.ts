import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockGateway } from '../../src/testing/index.js';
import { runCli } from './run-cli.js';

// `chat --usage` turns on the client's cost. A gateway without new-api's accounting endpoints
// (/api/pricing, /api/status) gives no price: the line says so, the call does not fail, and
// the one warning the SDK logs (shown only with GATEWAY_LOG) is a line of its own on stderr.

const mock = createMockGateway({ apiKey: 'k', accounting: false });
let env: Record<string, string> = {};
let close: () => Promise<void> = async () => undefined;
beforeAll(async () => {
  const listening = await mock.listen();
  close = listening.close;
  env = { GATEWAY_API_KEY: 'k', GATEWAY_BASE_URL: listening.url };
});
afterAll(() => close());

const unknown = 'usage: 4 input tokens (cached: not reported), 3 output tokens · cost unknown\n';

describe('chat --usage on a gateway that publishes no prices', { timeout: 20_000 }, () => {
  it.each([[[]], [['--no-stream']]])('prints the tokens with "cost unknown" and exits 0 %j', async (extra) => {
    const run = await runCli(['chat', 'hi', '--model', 'gpt-4o-mini', '--usage', ...extra], { env });
    expect(run).toMatchObject({ code: 0, stdout: 'You said: hi\n', stderr: unknown });
  });

  it('keeps the warning on a line of its own, with GATEWAY_LOG=warn, and the reply whole on stdout', async () => {
    const run = await runCli(['chat', 'hi', '--model', 'gpt-4o-mini', '--usage'], { env: { ...env, GATEWAY_LOG: 'warn' } });
    expect(run).toMatchObject({ code: 0, stdout: 'You said: hi\n' });
    const lines = run.stderr.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.at(-2)).toBe(unknown.trimEnd());
    expect(lines.slice(0, -2)).toEqual([expect.stringMatching(/^\[unified-gateway\] http:\/\/127\.0\.0\.1:\d+ has no \/api\/pricing or \/api\/status/)]);
  });

  it('asks for no prices without --usage', async () => {
    mock.reset();
    const run = await runCli(['chat', 'hi', '--model', 'gpt-4o-mini'], { env: { ...env, GATEWAY_LOG: 'warn' } });
    expect(run).toMatchObject({ code: 0, stdout: 'You said: hi\n', stderr: '' });
    expect(mock.requests.map((r) => r.path)).toEqual(['chat/completions']);
  });
});
