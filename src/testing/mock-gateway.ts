import { CATALOG_CREATED, defaultModels, type MockModel } from './catalog.js';
import { chatChunks, chatCompletion, checkChatParams } from './chat.js';
import { isObject, type MockContext } from './context.js';
import { editImages, generateImages, mockFile, transcribe } from './media.js';
import { responses } from './responses.js';
import { completions, embeddings } from './text.js';
import { createVideoStore } from './videos.js';
import { takeFault, type MockFault, type QueuedFault } from './faults.js';
import { serve, type ServeOptions, type Served } from './node-server.js';

/** Options for {@link createMockGateway}. */
export interface MockGatewayOptions {
  /** The only key accepted as `Authorization: Bearer <key>`. @default 'test-key' */
  apiKey?: string;
  /** The model catalogue. @default a handful of common chat, embedding and image ids */
  models?: MockModel[];
  /** Faults queued from the start, as if passed to `inject` one by one. */
  faults?: MockFault[];
  /** Delay between SSE frames, in ms. @default 0 */
  frameDelayMs?: number;
  /** Upper bound on how long a `stall` or `delay` fault holds a request open, in ms. @default 30_000 */
  stallTimeoutMs?: number;
  /**
   * The time scale of video tasks, in ms: a task is `pending` for one step, then
   * `processing` for one step per 5 s of video, then `completed` (or `failed` when its
   * prompt asks to fail). @default 1_000
   */
  videoStepMs?: number;
}

/** One request the mock received. The Authorization header is reduced to whether it matched. */
export interface MockRequestRecord {
  method: string;
  /** Path after `/v1/`, e.g. `chat/completions`. */
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON body, or undefined. */
  body: unknown;
  /** The bearer key matched the mock's key. */
  authorized: boolean;
}

/** The mock gateway: one implementation behind `fetch`, `listen()` and msw. */
export interface MockGateway {
  /**
   * A fetch-compatible function answering as the gateway would. Pass it as `new Gateway({ fetch })`
   * or serve it from msw: `http.all('*', ({ request }) => mock.fetch(request))`.
   */
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  /**
   * The same handler for msw, where a dropped connection must be answered with
   * `Response.error()` rather than a rejection (msw turns a rejection into a 500):
   * `http.all('*', ({ request }) => mock.handler(request))`.
   */
  handler: (request: Request) => Promise<Response>;
  /** Serves the mock over node:http on 127.0.0.1 (a free port by default); `url` ends in /v1. */
  listen(options?: ServeOptions): Promise<Served>;
  /** Queues a scripted fault for the next matching request(s). */
  inject(fault: MockFault): void;
  /** Drops every queued fault. */
  clearFaults(): void;
  /** Every request received, oldest first. */
  readonly requests: MockRequestRecord[];
  /** Clears faults and the request log. */
  reset(): void;
}


const CORS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': '*',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-expose-headers': 'x-request-id, retry-after, retry-after-ms',
};

/**
 * Creates an in-memory gateway that checks the bearer key (401 `invalid_api_key`), knows a
 * model catalogue (404 `model_not_found`), validates parameters (400), streams SSE, and
 * plays scripted faults.
 * @example
 * const mock = createMockGateway({ apiKey: 'test-key' });
 * mock.inject({ type: 'rate_limit', retryAfter: 0 });
 * const client = new Gateway({ apiKey: 'test-key', baseURL: 'http://mock.local/v1', fetch: mock.fetch });
 */
export function createMockGateway(options: MockGatewayOptions = {}): MockGateway {
  const apiKey = options.apiKey ?? 'test-key';
  const models = options.models ?? defaultModels;
  const stallTimeoutMs = options.stallTimeoutMs ?? 30_000;
  const queue: QueuedFault[] = [];
  const requests: MockRequestRecord[] = [];
  let counter = 0;

  const inject = (fault: MockFault) => {
    queue.push({ fault, remaining: fault.times ?? 1 });
  };
  for (const fault of options.faults ?? []) inject(fault);

  async function handle(request: Request): Promise<Response> {
    const id = ++counter;
    const url = new URL(request.url);
    if (request.method === 'OPTIONS') {
      // A wildcard does not cover Authorization in a preflight: echo what the browser asks for.
      const asked = request.headers.get('access-control-request-headers');
      return new Response(null, { status: 204, headers: { ...CORS, ...(asked ? { 'access-control-allow-headers': asked } : {}), 'access-control-max-age': '600' } });
    }
    if (request.method === 'GET' && url.pathname.startsWith('/mock-files/')) return mockFile(url.pathname);
    const path = url.pathname.replace(/^.*?\/v1\//, '').replace(/\/+$/, '');

    const isForm = (request.headers.get('content-type') ?? '').startsWith('multipart/form-data');
    let body: unknown;
    let form: FormData | undefined;
    let malformed = false;
    if (isForm) {
      form = await request.formData().catch(() => {
        malformed = true;
        return undefined;
      });
      body = form && describeForm(form);
    } else {
      const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        malformed = true;
      }
    }
    const authorized = request.headers.get('authorization') === `Bearer ${apiKey}`;
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => {
      if (key !== 'authorization') headers[key] = value;
    });
    requests.push({ method: request.method, path, headers, body, authorized });

    const fault = takeFault(queue, path);
    const reply = (status: number, payload: unknown) => json(status, payload, id);
    if (fault) {
      const early = await applyFault(fault, request, id, stallTimeoutMs);
      if (early) return early;
    }
    if (!authorized) return reply(401, errorBody('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'));
    if (malformed) return reply(400, errorBody('We could not parse the body of your request.', 'invalid_request_error', 'invalid_request_error'));

    const model = (modelId: unknown) => models.find((m) => m.id === modelId);
    const invalid = (message: string, param: string | null) => reply(400, errorBody(message, 'invalid_request_error', 'invalid_request_error', param));
    const ctx: MockContext = {
      id,
      body: isObject(body) && !form ? body : {},
      form,
      origin: url.origin,
      now: Date.now(),
      reply,
      invalid,
      model,
      checkModel(modelId, kind, what) {
        if (typeof modelId !== 'string' || !modelId) return invalid('you must provide a model parameter', 'model');
        const found = model(modelId);
        if (!found) return reply(404, modelNotFound(modelId));
        return found.kind === kind ? undefined : invalid(`The model '${modelId}' does not support ${what}.`, 'model');
      },
      sse: (frames, sseOptions = {}) => sse(frames, sseOptions.done ?? true, fault, request.signal, id, options.frameDelayMs ?? 0, stallTimeoutMs),
    };

    const route = `${request.method} ${path}`;
    if (route === 'GET models') return reply(200, { object: 'list', data: models.map((m) => modelObject(m)) });
    if (route.startsWith('GET models/')) {
      const modelId = decodeURIComponent(path.slice('models/'.length));
      const found = model(modelId);
      return found ? reply(200, modelObject(found)) : reply(404, modelNotFound(modelId));
    }
    if (route.startsWith('GET videos/generations/')) return videos.retrieve(ctx, decodeURIComponent(path.slice('videos/generations/'.length)));
    const handler = routes[route];
    if (handler) return handler(ctx);
    return reply(404, errorBody(`Unknown request URL: ${request.method} /v1/${path}.`, 'invalid_request_error', 'unknown_url'));
  }

  const videos = createVideoStore(options.videoStepMs ?? 1_000);
  const routes: Record<string, (ctx: MockContext) => Response> = {
    'POST chat/completions': chat,
    'POST completions': completions,
    'POST embeddings': embeddings,
    'POST images/generations': generateImages,
    'POST images/edits': editImages,
    'POST audio/transcriptions': transcribe,
    'POST responses': responses,
    'POST videos/generations': (ctx) => videos.create(ctx),
  };

  const fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => handle(new Request(input, init));

  return {
    fetch,
    handler: (request) => handle(request).catch(() => Response.error()),
    listen: (serveOptions) => serve(fetch, serveOptions),
    inject,
    clearFaults: () => {
      queue.length = 0;
    },
    requests,
    reset: () => {
      queue.length = 0;
      requests.length = 0;
    },
  };
}

/** POST /chat/completions */
function chat(ctx: MockContext): Response {
  const problem = checkChatParams(ctx.body);
  if (problem) return ctx.invalid(problem.message, problem.param);
  const bad = ctx.checkModel(ctx.body.model, 'chat', 'chat completions');
  if (bad) return bad;
  const created = Math.floor(ctx.now / 1000);
  if (ctx.body.stream === true) return ctx.sse(chatChunks(ctx.body, ctx.id, created).map((data) => ({ data })));
  return ctx.reply(200, chatCompletion(ctx.body, ctx.id, created));
}

/** A multipart form as it is logged: text fields as given, files as { name, type, size }. */
function describeForm(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  form.forEach((value, key) => {
    out[key] = typeof value === 'string' ? value : { name: (value as File).name, type: value.type, size: value.size };
  });
  return out;
}

function modelObject(m: MockModel) {
  return { id: m.id, object: 'model', created: CATALOG_CREATED, owned_by: m.owned_by };
}

const modelNotFound = (modelId: string) =>
  errorBody(`The model '${modelId}' does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found', 'model');

/** The OpenAI-compatible error body the gateway sends. */
export function errorBody(message: string, type: string, code: string | null, param: string | null = null) {
  return { error: { message, type, param, code } };
}

function json(status: number, payload: unknown, id: number, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(payload), {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': `req_mock_${id}`, ...CORS, ...extra },
  });
}

function connectionDropped(): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
}

/** Waits `ms`, ending early (with the abort reason) when the request is aborted. */
function hold(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** Plays a fault that replaces the response; returns undefined for faults that shape a stream instead. */
async function applyFault(fault: MockFault, request: Request, id: number, stallTimeoutMs: number): Promise<Response | undefined> {
  switch (fault.type) {
    case 'rate_limit': {
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
      if (fault.retryAfterMs !== undefined) headers['retry-after-ms'] = String(fault.retryAfterMs);
      return json(429, errorBody('Too many requests. Please reduce your request rate.', 'rate_limit_error', 'rate_limit_exceeded'), id, headers);
    }
    case 'insufficient_quota':
      return json(429, errorBody('You exceeded your current quota.', 'insufficient_quota', 'insufficient_quota'), id);
    case 'server_error':
      return json(500, errorBody('The server had an error while processing your request.', 'server_error', 'server_error'), id);
    case 'unavailable':
      return json(503, errorBody('The service is temporarily unavailable.', 'server_error', null), id, fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : {});
    case 'status': {
      const body = fault.body === undefined ? null : typeof fault.body === 'string' ? fault.body : JSON.stringify(fault.body);
      const type = typeof fault.body === 'string' ? 'text/plain' : 'application/json';
      return new Response(body, { status: fault.status, headers: { 'content-type': type, 'x-request-id': `req_mock_${id}`, ...CORS, ...fault.headers } });
    }
    case 'disconnect':
      throw connectionDropped();
    case 'delay':
      await hold(Math.min(fault.ms, stallTimeoutMs), request.signal);
      return undefined;
    default:
      return undefined;
  }
}

/** An SSE body of `data: <json>` frames (ending with `data: [DONE]` when `done`), shaped by a stream fault. */
function sse(
  chunks: Array<{ event?: string; data: unknown }>,
  done: boolean,
  fault: MockFault | undefined,
  signal: AbortSignal,
  id: number,
  frameDelayMs: number,
  stallTimeoutMs: number,
): Response {
  const encoder = new TextEncoder();
  const frames = chunks.map((c) => `${c.event ? `event: ${c.event}\n` : ''}data: ${JSON.stringify(c.data)}\n\n`);
  if (done && fault?.type !== 'no_done') frames.push('data: [DONE]\n\n');
  const delay = fault?.type === 'slow_stream' ? fault.frameDelayMs : frameDelayMs;
  let sent = 0;
  let stop: (() => void) | undefined;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (fault?.type === 'stream_cut' && sent >= fault.afterFrames) {
          // Let frames already written reach the client before the cut, as on a real socket.
          await hold(25, signal);
          return controller.error(connectionDropped());
        }
        if (fault?.type === 'stall' && sent >= fault.afterFrames) {
          await stall(controller, encoder, fault.pingEveryMs, stallTimeoutMs, signal, (s) => (stop = s));
          return controller.close();
        }
        if (sent >= frames.length) return controller.close();
        if (delay > 0) await hold(delay, signal);
        controller.enqueue(encoder.encode(frames[sent++]));
      } catch (error) {
        controller.error(error);
      }
    },
    cancel() {
      stop?.();
    },
  });
  return new Response(body, {
    status: 200,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-request-id': `req_mock_${id}`, ...CORS },
  });
}

/** Keeps a stream open without data (optionally pinging) until aborted, cancelled or `limitMs` passes. */
function stall(
  controller: ReadableStreamDefaultController<Uint8Array>,
  encoder: TextEncoder,
  pingEveryMs: number | undefined,
  limitMs: number,
  signal: AbortSignal,
  onStop: (stop: () => void) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const sendPing = () => {
      try {
        controller.enqueue(encoder.encode(': PING\n\n'));
      } catch {
        // The reader went away between two pings; the abort or cancel path ends the stall.
      }
    };
    const ping = pingEveryMs ? setInterval(sendPing, pingEveryMs) : undefined;
    const done = (error?: unknown) => {
      clearInterval(ping);
      clearTimeout(limit);
      if (error) reject(error);
      else resolve();
    };
    const limit = setTimeout(() => done(), limitMs);
    signal.addEventListener('abort', () => done(signal.reason), { once: true });
    onStop(() => done());
  });
}
