import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Gateway, UnsupportedParameterError } from 'unified-gateway';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { looksLikeChatModel, MAX_REQUESTS_PER_MODEL, probe, probeModel } from '../../src/cli/commands/probe.js';
import { resolveModelRules } from '../../src/core/adapt/model-rules.js';
import { createMockGateway, type MockGateway } from '../../src/testing/index.js';
import { runCli } from './run-cli.js';

// `unified-gateway probe` against the strict catalogue, whose families refuse as their vendors
// do. The built command line is spawned for what a user runs (it imports the package by name,
// with lessonOf bundled beside it); the command's own functions are called in this process,
// on the built package's client, where a test needs a fault on one particular request.

type Body = Record<string, unknown>;
const chatBodies = (mock: MockGateway): Body[] => mock.requests.filter((r) => r.path === 'chat/completions').map((r) => r.body as Body);
const perModel = (mock: MockGateway): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const body of chatBodies(mock)) counts.set(String(body.model), (counts.get(String(body.model)) ?? 0) + 1);
  return counts;
};

const strict = createMockGateway({ apiKey: 'k', catalog: 'strict' });
let env: Record<string, string> = {};
let dir = '';
let close: () => Promise<void> = async () => undefined;
beforeAll(async () => {
  const served = await strict.listen();
  close = served.close;
  env = { GATEWAY_API_KEY: 'k', GATEWAY_BASE_URL: served.url };
  dir = mkdtempSync(join(tmpdir(), 'ug-cli-probe-'));
});
afterAll(async () => {
  await close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => strict.reset());

describe('probe, the built command line, over the strict catalogue', { timeout: 60_000 }, () => {
  it('records what each family refuses, nothing for a model that takes everything, ≤ 8 requests a model', async () => {
    const run = await runCli(['probe', '--yes'], { env, timeoutMs: 50_000 });
    expect(run.code, run.stderr).toBe(0);
    const table = JSON.parse(run.stdout) as Record<string, { params?: Record<string, string>; endpoint?: string }>;
    expect(table['gpt-5']).toEqual({ params: { max_tokens: 'max_completion_tokens', temperature: 'unsupported', top_p: 'unsupported' } });
    expect(table['o3-pro']).toEqual({ endpoint: 'responses' });
    expect(table['gpt-5-codex']).toEqual({ endpoint: 'responses' });
    expect(table['o1-mini']).toEqual({ params: { max_tokens: 'max_completion_tokens', temperature: 'unsupported', tools: 'unsupported', top_p: 'unsupported' } });
    expect(table['gpt-4']).toEqual({ params: { response_format: 'unsupported' } });
    expect(table['deepseek-r1']?.params?.tools).toBe('unsupported');
    expect(table).not.toHaveProperty('deepseek-chat');
    expect(table).not.toHaveProperty('gpt-4o-mini');
    // Keys sorted at every level, as written.
    expect(Object.keys(table)).toEqual(Object.keys(table).sort());
    for (const entry of Object.values(table)) expect(Object.keys(entry.params ?? {})).toEqual(Object.keys(entry.params ?? {}).sort());
    // The table is one modelRules takes as it is.
    expect(resolveModelRules(table).entries.length).toBe(Object.keys(table).length);

    const counts = perModel(strict);
    expect(counts.get('deepseek-chat')).toBe(7); // the baseline and six probes
    // The gateway's /api/pricing says o3-pro answers only on /v1/responses: recorded without a request.
    expect(counts.has('o3-pro')).toBe(false);
    expect(run.stderr).toMatch(/\/api\/pricing lists \d+ models; \d+ answer chat requests \(\d+ only on \/v1\/responses/);
    expect(run.stderr).toMatch(/at most \$\d+\.\d+ at the gateway's own prices/);
    for (const [model, n] of counts) expect(n, model).toBeLessThanOrEqual(MAX_REQUESTS_PER_MODEL);
    // Every request asks for one output token, under the name the model takes.
    for (const body of chatBodies(strict)) expect(body.max_tokens ?? body.max_completion_tokens).toBe(1);
    // Not chat models: never sent a chat request.
    for (const id of ['text-embedding-3-small', 'dall-e-3', 'gpt-image-1', 'whisper-1', 'vendor_video2', 'gpt-3.5-turbo-instruct']) expect(counts.has(id), id).toBe(false);

    expect(run.stderr).toMatch(/At most \d+ requests \(8 per model\): about \d+ requests of ~10 input tokens/);
    expect(run.stderr).toContain('  deepseek-chat: takes everything probed\n');
    expect(run.stderr).toContain('  gpt-5: max_tokens → max_completion_tokens, temperature unsupported, top_p unsupported\n');
    expect(run.stderr).toContain('  o3-pro: answers only on /v1/responses (endpoint: responses)\n');
  });

  it('without a terminal and without --yes, refuses (exit 2) and sends no chat request', async () => {
    const run = await runCli(['probe'], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('pass --yes to confirm without a terminal');
    expect(run.stdout).toBe('');
    expect(chatBodies(strict)).toHaveLength(0);
  });

  it('--models probes only those; --out writes the table and prints its path', async () => {
    const out = join(dir, 'model-rules.json');
    const run = await runCli(['probe', '--models', 'gpt-5, o3-pro,gpt-5', '--out', out, '-y'], { env });
    expect(run).toMatchObject({ code: 0, stdout: `${out}\n` });
    expect(strict.requests.some((r) => r.path === 'models')).toBe(false);
    expect([...perModel(strict).keys()].sort()).toEqual(['gpt-5', 'o3-pro']);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({
      'gpt-5': { params: { max_tokens: 'max_completion_tokens', temperature: 'unsupported', top_p: 'unsupported' } },
      'o3-pro': { endpoint: 'responses' },
    });
    expect(existsSync(`${out}.part`)).toBe(false);
  });
});

/** A client of the built package on `fetch`, as the command line builds it, with no retry delay to wait out. */
const clientOn = (fetch: typeof globalThis.fetch, options: Record<string, unknown> = {}) =>
  new Gateway({ apiKey: 'k', baseURL: 'http://mock.local/v1', fetch, maxRetries: 0, logLevel: 'off', ...options });

/** An OpenAI-shaped error response. */
const errorResponse = (status: number, message: string, code: string | null = null, param: string | null = null) =>
  new Response(JSON.stringify({ error: { message, type: 'invalid_request_error', code, param } }), { status, headers: { 'content-type': 'application/json', 'retry-after-ms': '1' } });

/** `mock.fetch`, but `fault(body)` answers instead where it returns a response. */
function faulty(mock: MockGateway, fault: (body: Body) => Response | undefined): typeof globalThis.fetch {
  return async (input, init) => {
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Body) : undefined;
    const replaced = body && fault(body);
    return replaced ?? mock.fetch(input, init);
  };
}

describe('probeModel records only what a refusal names', () => {
  it('a 429 or a 500 on a probe records nothing for it, and says so', async () => {
    const mock = createMockGateway({ apiKey: 'k', catalog: 'strict' });
    const fetch = faulty(mock, (body) => (body.temperature !== undefined ? errorResponse(429, 'Too many requests', 'rate_limit_exceeded') : body.top_p !== undefined ? errorResponse(500, 'boom', 'server_error') : undefined));
    const report = await probeModel(clientOn(fetch), 'gpt-5', { signal: new AbortController().signal });
    expect(report.params).toEqual({ max_tokens: 'max_completion_tokens' });
    expect(report.notMeasured).toEqual([
      { what: 'temperature', reason: 'rate limited (429)' },
      { what: 'top_p', reason: 'gateway error (500)' },
    ]);
  });

  it('a rate-limited probe is retried once only where the budget of 8 has room for it', async () => {
    const mock = createMockGateway({ apiKey: 'k', catalog: 'strict' });
    let sent = 0;
    const fetch = faulty(mock, (body) => {
      sent++;
      return Object.keys(body).length > 3 ? errorResponse(429, 'Too many requests', 'rate_limit_exceeded') : undefined;
    });
    const report = await probeModel(clientOn(fetch), 'deepseek-chat', { signal: new AbortController().signal });
    // The baseline, the temperature probe and its one retry, then five probes without a retry.
    expect(sent).toBe(MAX_REQUESTS_PER_MODEL);
    expect(report.requests).toBe(MAX_REQUESTS_PER_MODEL);
    expect(report.params).toEqual({});
    expect(report.notMeasured.map((n) => n.reason)).toEqual(Array(6).fill('rate limited (429)'));
  });

  it('a 429 on the baseline leaves the whole model unmeasured, with nothing recorded', async () => {
    const mock = createMockGateway({ apiKey: 'k', catalog: 'strict' });
    const fetch = faulty(mock, () => errorResponse(429, 'Too many requests', 'rate_limit_exceeded'));
    const report = await probeModel(clientOn(fetch), 'gpt-5', { signal: new AbortController().signal });
    expect(report).toMatchObject({ params: {}, notMeasured: [{ what: 'model', reason: 'rate limited (429)' }] });
    expect(report.endpoint).toBeUndefined();
  });

  it('a refused output limit is not a refused parameter, even with a code that names it', async () => {
    const mock = createMockGateway({ apiKey: 'k', catalog: 'strict' });
    const fetch = faulty(mock, (body) =>
      body.tools !== undefined ? errorResponse(400, 'Could not finish the message because max_tokens or model output limit was reached. Please try again with higher max_tokens.', 'unsupported_parameter', 'tools') : undefined,
    );
    const report = await probeModel(clientOn(fetch), 'deepseek-chat', { signal: new AbortController().signal });
    expect(report.params).toEqual({});
    expect(report.notMeasured).toHaveLength(1);
    expect(report.notMeasured[0]).toMatchObject({ what: 'tools' });
    expect(report.notMeasured[0]?.reason).toMatch(/^the output limit of 1 token was refused/);
  });

  it('a refusal naming another parameter than the one probed records nothing', async () => {
    const mock = createMockGateway({ apiKey: 'k', catalog: 'strict' });
    const fetch = faulty(mock, (body) => (body.presence_penalty !== undefined ? errorResponse(400, "Unsupported parameter: 'messages' is not supported with this model.") : undefined));
    const report = await probeModel(clientOn(fetch), 'deepseek-chat', { signal: new AbortController().signal });
    expect(report.params).toEqual({});
    expect(report.notMeasured).toEqual([{ what: 'presence_penalty', reason: expect.stringContaining("Unsupported parameter: 'messages'") }]);
  });

  it('never sends more than 8 requests, even when max_tokens must be found and every probe fails', async () => {
    let sent = 0;
    const fetch: typeof globalThis.fetch = async (_input, init) => {
      sent++;
      const body = JSON.parse(String(init?.body)) as Body;
      if (body.max_tokens !== undefined) return errorResponse(400, "Unsupported parameter: 'max_tokens' is not supported with this model.", 'unsupported_parameter', 'max_tokens');
      if (Object.keys(body).length > 3) return errorResponse(503, 'busy');
      return new Response(JSON.stringify({ id: 'c', object: 'chat.completion', created: 0, model: body.model, choices: [{ index: 0, message: { role: 'assistant', content: 'OK' }, finish_reason: 'length' }] }), { headers: { 'content-type': 'application/json' } });
    };
    const report = await probeModel(clientOn(fetch), 'x', { signal: new AbortController().signal });
    expect(sent).toBe(MAX_REQUESTS_PER_MODEL);
    expect(report.requests).toBe(MAX_REQUESTS_PER_MODEL);
    // Refused without a name to use, and max_completion_tokens answered: the rename was measured.
    expect(report.params).toEqual({ max_tokens: 'max_completion_tokens' });
    expect(report.notMeasured).toHaveLength(6);
  });
});

describe("the probe's table in a client", () => {
  it('gpt-5 requests go through without a 400; a temperature it refuses is stopped before sending', async () => {
    const mock = createMockGateway({ apiKey: 'k', catalog: 'strict' });
    const report = await probeModel(clientOn(mock.fetch), 'gpt-5', { signal: new AbortController().signal });
    const rules = { 'gpt-5': { params: report.params } };
    expect(() => resolveModelRules(rules)).not.toThrow();
    mock.reset();
    const client = clientOn(mock.fetch, { modelRules: rules });
    const reply = await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5, temperature: 1 });
    expect(reply.choices[0]?.message.content).toBeTruthy();
    expect(chatBodies(mock)).toEqual([expect.objectContaining({ max_completion_tokens: 5 })]);
    const refused = await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }], temperature: 0.2 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UnsupportedParameterError);
    expect(chatBodies(mock)).toHaveLength(1);
  });

  it('a model the built-in table does not know works only with the measured table', async () => {
    const mock = createMockGateway({ apiKey: 'k', models: [{ id: 'acme-thinker', owned_by: 'acme', kind: 'chat', family: 'openai-reasoning' }] });
    const report = await probeModel(clientOn(mock.fetch), 'acme-thinker', { signal: new AbortController().signal });
    const body = { model: 'acme-thinker', messages: [{ role: 'user' as const, content: 'hi' }], max_tokens: 5 };
    const without = await clientOn(mock.fetch).chat.completions._createAsSent(body).catch((e: unknown) => e);
    expect((without as { status?: number }).status).toBe(400);
    const reply = await clientOn(mock.fetch, { modelRules: { 'acme-thinker': { params: report.params } } }).chat.completions.create(body);
    expect(reply.object).toBe('chat.completion');
  });
});

/** The command run in this process with fake streams; `stdin` answers the confirmation. */
async function runProbe(args: { models?: string; yes?: boolean; out?: string }, fetch: typeof globalThis.fetch, stdin: { isTTY: boolean; text: string }, signal = new AbortController().signal) {
  let stdout = '';
  let stderr = '';
  const input = Object.assign(Readable.from([stdin.text]), { isTTY: stdin.isTTY });
  const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, stdin: input, env: {} };
  const error = await probe
    .run({ values: { models: args.models, yes: args.yes, out: args.out }, positionals: [], signal, io, client: () => clientOn(fetch) })
    .then(() => undefined)
    .catch((e: unknown) => e);
  return { stdout, stderr, error };
}

describe('probe asks before spending', () => {
  it('on a terminal, sends nothing unless the answer is y', async () => {
    const mock = createMockGateway({ apiKey: 'k', catalog: 'strict' });
    const declined = await runProbe({ models: 'gpt-5' }, mock.fetch, { isTTY: true, text: 'n\n' });
    expect(declined.error).toBeUndefined();
    expect(declined.stderr).toContain('Send them? [y/N] Nothing was sent.');
    expect(declined.stdout).toBe('');
    expect(chatBodies(mock)).toHaveLength(0);
    const accepted = await runProbe({ models: 'gpt-5' }, mock.fetch, { isTTY: true, text: 'y\n' });
    expect(accepted.error).toBeUndefined();
    expect(JSON.parse(accepted.stdout)).toHaveProperty('gpt-5');
    expect(chatBodies(mock).length).toBeGreaterThan(0);
  });

  it('Ctrl-C stops the probe and still writes what was measured', async () => {
    const mock = createMockGateway({ apiKey: 'k', catalog: 'strict' });
    const controller = new AbortController();
    let sent = 0;
    // The third request (gpt-5's temperature probe, after the baseline and its rename) is cut short.
    const fetch = faulty(mock, () => {
      if (++sent === 3) controller.abort(new Error('Interrupted (SIGINT)'));
      return undefined;
    });
    const run = await runProbe({ models: 'gpt-5,deepseek-chat', yes: true }, fetch, { isTTY: false, text: '' }, controller.signal);
    expect(run.error).toBeInstanceOf(Error);
    expect(JSON.parse(run.stdout)).toEqual({ 'gpt-5': { params: { max_tokens: 'max_completion_tokens' } } });
    expect(run.stderr).toContain('gpt-5: max_tokens → max_completion_tokens; not measured: the rest (interrupted)');
    expect(run.stderr).toContain('Interrupted: 1 of 2 models not reached');
    expect(chatBodies(mock).some((b) => b.model === 'deepseek-chat')).toBe(false);
  });
});

describe('looksLikeChatModel', () => {
  it.each([
    ['gpt-5', 'openai', true],
    ['moonshotai/kimi-k2-instruct-0905', 'groq', true],
    ['deepseek-chat', 'deepseek', true],
    ['text-embedding-3-small', 'openai', false],
    ['gemini-embedding-001', 'google', false],
    ['dall-e-3', 'openai', false],
    ['gpt-image-1', 'openai', false],
    ['whisper-1', 'openai', false],
    ['tts-1-hd', 'openai', false],
    ['gpt-4o-realtime-preview', 'openai', false],
    ['vendor_video2-landscape', 'vendor', false],
    ['veo3', 'google', false],
    ['omni-moderation-latest', 'openai', false],
    ['gpt-3.5-turbo-instruct', 'openai', false],
    ['mj_imagine', 'midjourney', false],
  ])('%s (%s) → %s', (id, owned_by, chat) => {
    expect(looksLikeChatModel({ id, owned_by })).toBe(chat);
  });
});
