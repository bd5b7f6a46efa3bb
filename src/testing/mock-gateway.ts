import { Redactor } from '../internal/redact.js';
import { pricingBody, statusBody } from './accounting.js';
import { canonicalRequest } from './canonical.js';
import { replayResponse, type Cassette } from './cassette.js';
import { CassetteLibrary } from './cassette-library.js';
import { CATALOG_CREATED, defaultModels, strictCatalog, type MockModel } from './catalog.js';
import { chat } from './chat.js';
import type { MockChatReply } from './chat-script.js';
import { isObject, type MockContext } from './context.js';
import { applyFault, takeFault, type MockFault, type QueuedFault } from './faults.js';
import { createLedger, DEFAULT_QUOTA, type MockCharge } from './ledger.js';
import { checkMockOptions } from './mock-options.js';
import { dataUrl, describeForm, editImages, generateImages, mockFile, transcribe } from './media.js';
import { serve, type ServeOptions, type Served } from './node-server.js';
import { createPromptCache, type MockCacheHints } from './prompt-cache.js';
import { responses } from './responses.js';
import { completions, embeddings } from './text.js';
import { createVideoStore } from './videos.js';
import { sse } from './sse.js';
import { errorBody, finish, json } from './wire.js';

/** Options for {@link createMockGateway}. */
export interface MockGatewayOptions {
  /**
   * The only key accepted as `Authorization: Bearer <key>`. @default 'test-key' (with
   * `cassettes`: any key, unless one is given here)
   */
  apiKey?: string | undefined;
  /** The model catalogue. @default a handful of common chat, embedding and image ids */
  models?: MockModel[] | undefined;
  /**
   * The catalogue when `models` is not given. `'strict'` adds the strict catalogue's families
   * (`strictModels`): DeepSeek, Kimi, Qwen, GLM, Groq, Gemini 3, OpenRouter, LiteLLM, new-api,
   * the gpt-5 family and o-series, responses-only models, a strict OpenAI host. Each answers,
   * streams and refuses as its vendor does, with the vendor's exact 400s
   * (docs/mock-gateway.md#the-strict-catalogue). @default 'default'
   * @example
   * const mock = createMockGateway({ catalog: 'strict' });
   */
  catalog?: 'default' | 'strict' | undefined;
  /** Faults queued from the start, as if passed to `inject` one by one. */
  faults?: MockFault[] | undefined;
  /** Delay between SSE frames, in ms. @default 0 */
  frameDelayMs?: number | undefined;
  /** Upper bound on how long a `stall` or `delay` fault holds a request open, in ms. @default 30_000 */
  stallTimeoutMs?: number | undefined;
  /**
   * The time scale of video tasks, in ms: a task is `pending` for one step, then
   * `processing` for one step per 5 s of video, then `completed` (or `failed` when its
   * prompt contains "fail"). @default 1_000
   */
  videoStepMs?: number | undefined;
  /** Chat replies ({@link MockChatReply}) queued from the start, as if passed to `script`. */
  script?: MockChatReply[] | undefined;
  /**
   * What chat/completions does with `cache_control` hints: `'honor'` caches the prompt up to
   * each marked message and reports what a later request reuses as
   * `usage.prompt_tokens_details.cached_tokens`; `'drop'` reports 0 every time, as a gateway
   * that strips the hints. A request without hints reports no cache figure. @default 'honor'
   */
  cacheHints?: MockCacheHints | undefined;
  /**
   * Serve recorded cassettes (see `recorder`) instead of the mock's own answers: a directory
   * of cassette files (Node, Deno, Bun) or the cassettes inline. A request no cassette
   * matches gets a 404 `cassette_not_found` whose message names it and shows how it differs
   * from the nearest cassette. Faults still apply first; the catalogue, script and
   * parameter checks do not. Inline cassettes are checked when the mock is made.
   * @example
   * const { url } = await createMockGateway({ cassettes: 'test/cassettes' }).listen();
   */
  cassettes?: string | readonly Cassette[] | undefined;
  /**
   * Serve new-api's accounting endpoints: `GET /api/pricing`, `/api/status`, `/api/log/token`,
   * `/api/usage/token`, `/dashboard/billing/subscription` and `/dashboard/billing/usage`.
   * `false` answers them 404, as a gateway that is not new-api. Every answered call is billed
   * either way. @default true
   */
  accounting?: boolean | undefined;
  /**
   * The quota granted to the key, in new-api's units (500,000 a USD): `total_granted` of
   * `/api/usage/token` and the limits of `/dashboard/billing/subscription`. @default 5_000_000 (10 USD)
   */
  quota?: number | undefined;
  /**
   * Reads of `/api/log/token` a key may make per second before a 429 with `Retry-After`, a
   * loose model of new-api's rate limit on it; 0 for none. @default 1
   */
  logReadsPerSecond?: number | undefined;
}

/** One request the mock received. The Authorization header is reduced to whether it matched. */
export interface MockRequestRecord {
  method: string;
  /** Path after `/v1/`, e.g. `chat/completions` (the whole path when it does not start with `/v1/`). */
  path: string;
  headers: Record<string, string>;
  /**
   * Parsed JSON body, or a multipart form field by field (files as `{ name, type, size }`, a
   * repeated key or one ending in `[]` as an array), or undefined.
   */
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
  fetch: (input: Request | string | URL, init?: RequestInit) => Promise<Response>;
  /**
   * The same handler for msw, where a dropped connection must be answered with
   * `Response.error()` rather than a rejection (msw turns a rejection into a 500):
   * `http.all('*', ({ request }) => mock.handler(request))`.
   */
  handler: (request: Request) => Promise<Response>;
  /**
   * Serves the mock over node:http on 127.0.0.1 (a free port by default); `url` ends in /v1.
   * With `cassettes` as a directory, its files are read first: one that is not a cassette
   * rejects with a `ValidationError` naming it.
   */
  listen(options?: ServeOptions): Promise<Served>;
  /** Queues a scripted fault for the next matching request(s). */
  inject(fault: MockFault): void;
  /** Drops every queued fault. */
  clearFaults(): void;
  /**
   * Queues exact assistant replies for chat/completions, taken one per answered chat request
   * (streamed or not), in order; when none are left the deterministic replies resume.
   * @example
   * mock.script({ toolCalls: [{ name: 'get_weather', arguments: '{"city":' }] }); // invalid JSON, sent verbatim
   */
  script(replies: MockChatReply | MockChatReply[]): void;
  /** Every request received, oldest first. */
  readonly requests: MockRequestRecord[];
  /** Clears faults, scripted replies, the prompt cache, the request log and the bills, and starts every cassette sequence again. */
  reset(): void;
}

/**
 * Creates an in-memory gateway that checks the bearer key (401 `invalid_api_key`), knows a
 * model catalogue (404 `model_not_found`), validates parameters (400), streams SSE, and
 * plays scripted faults. At the origin's root, outside `/v1`, it also serves new-api's
 * `GET /api/pricing` (an entry per catalogue model: deterministic ratios, per-request prices
 * for image and video models, `supported_endpoint_types` as new-api names them) and
 * `GET /api/status` (`quota_per_unit: 500000`, `quota_display_type: 'USD'`), with the same key.
 * @example
 * const mock = createMockGateway({ apiKey: 'test-key' });
 * mock.inject({ type: 'rate_limit', retryAfter: 0 });
 * const client = new Gateway({ apiKey: 'test-key', baseURL: 'http://mock.local/v1', fetch: mock.fetch });
 */
export function createMockGateway(options: MockGatewayOptions = {}): MockGateway {
  checkMockOptions(options);
  const apiKey = options.apiKey ?? 'test-key';
  const models = options.models ?? (options.catalog === 'strict' ? strictCatalog() : defaultModels);
  const stallTimeoutMs = options.stallTimeoutMs ?? 30_000;
  const queue: QueuedFault[] = [];
  const requests: MockRequestRecord[] = [];
  const script: MockChatReply[] = [...(options.script ?? [])];
  const promptCache = createPromptCache(options.cacheHints ?? 'honor');
  const ledger = createLedger(options.quota ?? DEFAULT_QUOTA);
  const accounting = options.accounting ?? true;
  const logReadsPerSecond = options.logReadsPerSecond ?? 1;
  /** When each key last read /api/log/token, in ms. */
  const logReads = new Map<string, number[]>();
  let counter = 0;

  const cassettes = options.cassettes;
  let loading: Promise<CassetteLibrary> | undefined;
  let loaded: CassetteLibrary | undefined;
  const library = () =>
    (loading ??= CassetteLibrary.load({ ...(typeof cassettes === 'string' ? { dir: cassettes } : { cassettes }), ignore: [] }).then((l) => (loaded = l)));

  const inject = (fault: MockFault) => {
    queue.push({ fault, remaining: fault.times ?? 1 });
  };
  for (const fault of options.faults ?? []) inject(fault);

  async function handle(request: Request): Promise<Response> {
    if (request.url.startsWith('data:')) return dataUrl(request.url);
    const id = ++counter;
    const requestId = oneapiRequestId(id);
    return finish(await answer(request, id, requestId), id, requestId);
  }

  async function answer(request: Request, id: number, requestId: string): Promise<Response> {
    const url = new URL(request.url);
    if (request.method === 'OPTIONS') {
      // A wildcard does not cover Authorization in a preflight: echo what the browser asks for.
      const asked = request.headers.get('access-control-request-headers');
      return new Response(null, { status: 204, headers: { ...(asked ? { 'access-control-allow-headers': asked } : {}), 'access-control-max-age': '600' } });
    }
    if (request.method === 'GET' && url.pathname.startsWith('/mock-files/')) {
      return mockFile(url.pathname) ?? json(404, unknownUrl(request.method, url), id);
    }
    // Only the mock's own base path: a client with a wrong prefix (/api/v1/) must fail here as it would on the gateway.
    const path = url.pathname.startsWith('/v1/') ? url.pathname.slice('/v1/'.length).replace(/\/+$/, '') : url.pathname;
    if (cassettes !== undefined) return fromCassettes(request, path, id);

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
    const bearer = request.headers.get('authorization');
    const authorized = bearer === `Bearer ${apiKey}`;
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
    let charged: MockCharge | undefined;
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
      sse: (frames, sseOptions = {}) =>
        sse(frames, { done: sseOptions.done ?? true, fault, signal: request.signal, frameDelayMs: options.frameDelayMs ?? 0, stallTimeoutMs }),
      charge: (c) => {
        charged = c;
      },
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
    if (handler) {
      const response = handler(ctx);
      // The bill of an answered call, under the key it was made with (new-api settles after a 200 from upstream).
      if (charged && response.ok) ledger.record(bearer ?? '', requestId, charged, model(charged.model), ctx.now);
      return response;
    }
    const account = accountingRoutes[`${request.method} ${path.replace(/\/+$/, '')}`];
    if (account && accounting) return account(ctx, bearer ?? '');
    return reply(404, unknownUrl(request.method, url));
  }

  /** May `key` read /api/log/token now? Undefined when so, else the seconds to wait. */
  function logReadWait(key: string, now: number): number | undefined {
    if (logReadsPerSecond === 0) return undefined;
    const recent = (logReads.get(key) ?? []).filter((t) => now - t < 1_000);
    if (recent.length >= logReadsPerSecond) return Math.max(1, Math.ceil((1_000 - (now - (recent[0] ?? now))) / 1_000));
    recent.push(now);
    logReads.set(key, recent);
    return undefined;
  }

  // new-api's accounting endpoints at the origin's root (a path outside /v1/ is routed whole);
  // the dashboard's are also served under /v1/, as new-api's router/dashboard.go does.
  const accountingRoutes: Record<string, (ctx: MockContext, key: string) => Response> = {
    'GET /api/pricing': (ctx) => ctx.reply(200, pricingBody(models)),
    'GET /api/status': (ctx) => ctx.reply(200, statusBody()),
    'GET /api/log/token': (ctx, key) => {
      const wait = logReadWait(key, ctx.now);
      if (wait === undefined) return ctx.reply(200, ledger.logBody(key));
      const limited = ctx.reply(429, { success: false, message: 'Too many requests: the mock allows ' + String(logReadsPerSecond) + ' read(s) of /api/log/token a second per key.' });
      limited.headers.set('retry-after', String(wait));
      return limited;
    },
    'GET /api/usage/token': (ctx, key) => ctx.reply(200, ledger.usageBody(key)),
    'GET /dashboard/billing/subscription': (ctx) => ctx.reply(200, ledger.subscriptionBody()),
    'GET /dashboard/billing/usage': (ctx, key) => ctx.reply(200, ledger.billingUsageBody(key)),
    'GET dashboard/billing/subscription': (ctx) => ctx.reply(200, ledger.subscriptionBody()),
    'GET dashboard/billing/usage': (ctx, key) => ctx.reply(200, ledger.billingUsageBody(key)),
  };

  /** An answer from the cassettes: faults first, then the key (only when one was given), then the cassette or a 404 that says why. */
  async function fromCassettes(request: Request, path: string, id: number): Promise<Response> {
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => {
      if (key !== 'authorization') headers[key] = value;
    });
    const redactor = new Redactor();
    redactor.addHeaders({ authorization: request.headers.get('authorization') ?? '' });
    const canonical = await canonicalRequest(request, { redactor });
    const authorized = options.apiKey === undefined || request.headers.get('authorization') === `Bearer ${apiKey}`;
    requests.push({ method: request.method, path, headers, body: canonical.body ?? canonical.form ?? canonical.text, authorized });
    const fault = takeFault(queue, path);
    if (fault) {
      const early = await applyFault(fault, request, id, stallTimeoutMs);
      if (early) return early;
    }
    if (!authorized) return json(401, errorBody('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'), id);
    let found;
    try {
      found = (await library()).take(canonical) ?? (await library()).miss(canonical);
    } catch (error) {
      return json(500, errorBody(`The mock gateway could not load its cassettes: ${(error as Error).message}`, 'server_error', 'cassettes_unreadable'), id);
    }
    if ('text' in found) return json(404, errorBody(found.text, 'invalid_request_error', 'cassette_not_found'), id);
    return replayResponse(found.cassette, request.signal);
  }

  const videos = createVideoStore(options.videoStepMs ?? 1_000);
  const routes: Record<string, (ctx: MockContext) => Response> = {
    'POST chat/completions': (ctx) => chat(ctx, () => script.shift(), promptCache),
    'POST completions': completions,
    'POST embeddings': embeddings,
    'POST images/generations': generateImages,
    'POST images/edits': editImages,
    'POST audio/transcriptions': transcribe,
    'POST responses': (ctx) => responses(ctx, () => script.shift()),
    'POST videos/generations': (ctx) => videos.create(ctx),
  };

  const fetch = (input: Request | string | URL, init?: RequestInit): Promise<Response> => handle(new Request(input, init));

  return {
    fetch,
    handler: (request) => handle(request).catch(() => Response.error()),
    listen: async (serveOptions) => {
      // A directory's cassettes are read before serving: one that cannot be loaded is refused here, naming the file, rather than answered as a 500 to every request.
      if (typeof cassettes === 'string') await library();
      return serve(fetch, serveOptions);
    },
    inject,
    clearFaults: () => {
      queue.length = 0;
    },
    script: (replies) => {
      script.push(...(Array.isArray(replies) ? replies : [replies]));
    },
    requests,
    reset: () => {
      queue.length = 0;
      script.length = 0;
      requests.length = 0;
      promptCache.clear();
      ledger.clear();
      logReads.clear();
      loaded?.rewind();
    },
  };
}

/**
 * A unique `X-Oneapi-Request-Id`: new-api's form (a timestamp, then random characters:
 * common.GetTimeString() + GetRandomString), with the mock's request counter in between.
 */
function oneapiRequestId(id: number): string {
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 17);
  const random = Array.from({ length: 8 }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(Math.random() * 36)]).join('');
  return `${stamp}${String(id).padStart(6, '0')}${random}`;
}

function modelObject(m: MockModel) {
  return { id: m.id, object: 'model', created: CATALOG_CREATED, owned_by: m.owned_by };
}

const modelNotFound = (modelId: string) =>
  errorBody(`The model '${modelId}' does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found', 'model');

/** The 404 for an unknown route names the path as requested, with the fix when it is outside `/v1/`. */
function unknownUrl(method: string, url: URL) {
  const { pathname } = url;
  const hint = pathname.startsWith('/v1/') || pathname.startsWith('/mock-files/')
    ? ''
    : pathname.includes('/v1/')
      ? ` The mock gateway serves /v1/ directly under its host, with nothing before it: use ${url.origin}/v1 as the client's base URL.`
      : " The gateway's paths start with /v1/: end the client's base URL with /v1 (e.g. http://host/v1).";
  return errorBody(`Unknown request URL: ${method} ${pathname}.${hint}`, 'invalid_request_error', 'unknown_url');
}
