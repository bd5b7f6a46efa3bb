import { uuid } from '../../internal/uuid.js';
import { attempt, joinURL } from './attempt.js';
import { CallState, type PreparedRequest } from './call-state.js';
import { checkRequestOptions } from '../check.js';
import { APITimeoutError, APIUserAbortError, GatewayError, UnsupportedParameterError, ValidationError } from '../errors.js';
import { adaptTo, learnFrom } from './adapt-step.js';
import type { AttemptInfo } from '../hooks.js';
import { checkModels } from '../options.js';
import { recover } from './recovery.js';
import { admit, afterAnswer, beforeAttempt, firstBase } from './fleet-steps.js';
import type { FrameSource } from '../streams/stream.js';
import { shownURL } from './transport.js';
import { askForUsage } from '../usage/stream-usage.js';
import type { CachedReply, CallOutcome, CallRequest, CoreConfig, OpenBody, Reply, RequestOptions } from '../types.js';
import type { Cost } from '../cost/cost.js';

/** The response cache's stages (cache/cache.ts), loaded with the first call of a client that has a cache. */
type CacheStages = typeof import('../cache/cache.js');
type Flight = Awaited<ReturnType<CacheStages['lookup']>> & { kind: 'flight' };
/** The cost stage (cost/stage.ts), loaded with the first call of a client that has `cost` or `budgets`. */
type CostStages = typeof import('../cost/stage.js');

/** What a cache hit or a joined caller costs: nothing was sent for it. */
const NOTHING_SENT: Cost = Object.freeze({ quota: 0, usd: 0, source: 'priced' });

// One method call, from its described request to its result: the stages every request goes
// through, in order (docs/architecture.md, "The life of one request"):
//   runCall → answer (the response cache, when the client has one: lookup, a flight, land)
//           → sendRequest (the fleet's steps, fleet-steps.ts) → attempt (attempt.ts: key,
//           timeout, fetch, redirects) → readResponse (response.ts); after a failure, recover
//           (recovery.ts: decide.ts says what next)

/**
 * Runs one method call: checks its arguments (a ValidationError sends nothing), sends it
 * (with retries, failover and model fallback), and shapes the answer: a Stream for a
 * streamed call, else `request.map` of the parsed body. Errors leave with the client's
 * secrets removed. `raw` resolves with the response, body unread (`asResponse()`).
 */
export async function runCall<T>(config: CoreConfig, request: CallRequest<T>, options: RequestOptions, raw: boolean): Promise<CallOutcome<T>> {
  // Told before the arguments are checked: a call refused by them ends at once, with the ValidationError.
  const observer = config.telemetry?.startCall(config.redactor);
  let call: CallState | undefined;
  try {
    checkRequestOptions(options);
    if (options.headers) config.redactor.addHeaders(options.headers);
    request.schema?.check(request.form ? request.form.fields : request.body);
    call = new CallState(config, request, options, { raw, models: fallbackModels(config, request, options.fallbackModels), observer });
    const reply = await answer(call);
    if (reply.cache) {
      config.events.onCache?.({ outcome: reply.cache, method: request.method, path: call.path, model: request.model });
      observer?.cache?.(reply.cache, { method: request.method, path: call.path, body: request.body, stream: request.stream !== undefined });
    }
    // A stream's cost comes at its end (Stream#cost()); anything else's is known now.
    const cost = call.costing && !request.stream ? ((await call.costing.result) ?? null) : null;
    if (raw) {
      observer?.end({ data: reply.data, cost });
      return { response: reply.response, cache: reply.cache, cost };
    }
    const data = await shape(call, reply);
    // After shaping: a reply that fails there (a ParseError) is the call's failure, for telemetry too.
    observer?.end({ data: reply.data, cost });
    return { response: reply.response, data: data as T, cache: reply.cache, cost };
  } catch (error) {
    // Every error of a call passes here: secrets out of anything on the way (a parser's
    // ParseError quoting the reply, a custom fetch's message).
    const safe = error instanceof GatewayError ? config.redactor.error(error) : error;
    observer?.end({ error: safe });
    throw request.mapError ? request.mapError(safe) : safe;
  } finally {
    call?.end();
  }
}

/**
 * The result the caller gets from a reply: a stream is the request's Stream class over the
 * opened reader (which tells it of every frame), a download a Response that reports
 * progress, anything else the parsed body, shaped by `request.map`.
 */
async function shape(call: CallState, reply: Reply): Promise<unknown> {
  const { request } = call;
  if (request.stream) {
    const source = reply.data as FrameSource<never>;
    const stream = new request.stream(source, call.controller as AbortController, request.streamParams);
    source.attach(stream);
    if (call.costing) stream._costed(call.costing.result ?? Promise.resolve(null));
    return stream;
  }
  if (request.download) {
    // Loaded with the first download (download.ts): a chat app never carries it.
    const { withProgress } = await import('./download.js');
    return withProgress(reply.data as OpenBody, reply.response, call.options.idleTimeout ?? call.config.idleTimeout, request.download.onProgress);
  }
  return request.map ? request.map(reply.data, reply.response) : reply.data;
}

/**
 * The call's answer: from the response cache when the client has one and the call is one it
 * answers (docs/cache.md), else sent. Identical calls at once share one request, a flight.
 */
async function answer(call: CallState): Promise<CachedReply> {
  const { config, request, options } = call;
  const cache = config.cache;
  const mode = cache && request.cache ? (options.cache ?? 'use') : 'bypass';
  if (!cache || mode === 'bypass') return { ...(await sendRequest(call)), cache: null };
  const stages: CacheStages = await import('../cache/cache.js');
  const found = await stages.lookup(cache, call, mode);
  if (found.kind === 'hit') {
    if (call.costing) call.costing.result = Promise.resolve(NOTHING_SENT);
    return found.reply;
  }
  if (found.kind === 'send') return { ...(await sendRequest(call)), cache: 'miss' };
  if (found.first) void fly(call, found, stages);
  try {
    const landed = await found.flight.join(call);
    // The flight's request is its first caller's to report; every caller that joined it paid nothing.
    if (call.costing) call.costing.result = found.first ? (found.flight.cost ?? Promise.resolve(null)) : Promise.resolve(NOTHING_SENT);
    return stages.settle(call, found, landed);
  } catch (error) {
    // The flight's request was sent with the first caller's per-attempt `timeout`: a shorter one
    // than this caller's running out is not this caller's failure, so it asks again.
    if (!found.first && error instanceof APITimeoutError && !call.signal?.aborted && found.flight.attemptTimeoutMs < (options.timeout ?? config.timeout)) return answer(call);
    throw error;
  }
}

/**
 * A flight's request: sent apart from any one caller, so a caller that leaves stops only
 * itself; kept by the cache, then handed to every caller still waiting (cache.ts `land`).
 */
async function fly(call: CallState, found: Flight, stages: CacheStages): Promise<void> {
  const cache = call.config.cache as NonNullable<CoreConfig['cache']>;
  const upstream = call.forOwner(found.flight);
  found.flight.attemptTimeoutMs = call.options.timeout ?? call.config.timeout;
  try {
    const reply = await sendRequest(upstream);
    found.flight.cost = upstream.costing?.result;
    await stages.land(cache, upstream, found, reply);
  } catch (error) {
    stages.failed(cache, found.flight, error);
  } finally {
    upstream.end();
  }
}

/**
 * The models to try after the caller's: the request's list, else the client's for that
 * model; each once, and never the requested model again.
 */
function fallbackModels(config: CoreConfig, request: CallRequest, requested: readonly string[] | undefined): string[] {
  if (requested !== undefined) checkModels('fallbackModels', requested);
  if (typeof request.model !== 'string') return [];
  const own = request.clientFallbacks !== false && Object.hasOwn(config.fallbackModels, request.model);
  const list = requested ?? (own ? config.fallbackModels[request.model] : undefined);
  return list ? [...new Set(list)].filter((model) => model !== request.model) : [];
}

/** One model's request, ready to send: the body serialised once (multipart: encoded once), the headers built once. */
async function prepare(call: CallState, model: string | undefined): Promise<PreparedRequest> {
  const { request } = call;
  const swapped = model !== request.model;
  let json = call.body && swapped ? { ...call.body, model } : call.body;
  // Telemetry and the cost stage read a stream's usage: asked for when the caller did not, and taken out of the caller's frames again.
  const asked = request.stream && (call.config.telemetry || call.config.cost) ? askForUsage(call.path, json) : undefined;
  call.usageAsked = asked !== undefined;
  json = asked ?? json;
  // A chat request as its model takes it (adapt-step.ts): parameters renamed or left out, or served through /v1/responses.
  const adapted = request.adapt && model !== undefined && json ? await adaptTo(call, model, json as Record<string, unknown>) : undefined;
  const path = adapted?.path ?? call.path;
  const usage = adapted?.route !== undefined && (json as { stream_options?: { include_usage?: unknown } }).stream_options?.include_usage === true;
  json = adapted?.body ?? json;
  const described = { method: request.method, path, body: json, stream: request.stream !== undefined, url: call.url };
  call.observer?.request(described);
  const form = request.form ? await encodeForm(call, model) : undefined;
  const body = form ? form.blob : described.body === undefined ? undefined : serialise(described.body);
  // A download URL is its own address: it is never moved to the other base.
  const { pool } = call.config;
  const pinned = call.url === undefined ? request.baseURL : (pool.baseOf(call.url) ?? new URL(call.url).origin);
  return { model, headers: buildHeaders(call, form?.contentType), body, pinned, path, json: request.adapt ? (json as Record<string, unknown>) : undefined, route: adapted?.route, usage };
}

function serialise(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    throw new ValidationError('body', `cannot be sent as JSON (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
  }
}

/** A multipart body: the files read once per call (a stream or a Response can be read only once), the encoder loaded with the first upload. */
async function encodeForm(call: CallState, model: string | undefined): Promise<{ blob: Blob; contentType: string }> {
  const { readFiles, encodeMultipart } = await import('../uploads/multipart.js');
  const { fields, files } = call.request.form as NonNullable<CallRequest['form']>;
  call.files ??= readFiles(fields, files);
  return encodeMultipart(model === undefined ? fields : { ...fields, model }, files, await call.files);
}

/**
 * Sends the call until it is answered: admitted by the fleet (quota, rate budget), then each
 * attempt, and after a failure what `recover` decides: the same request again (retry,
 * failover), the next model (fallback, a new Idempotency-Key), or the error to give up with.
 * When the fleet knows nothing that concerns the call (`Fleet.clear`), its steps are skipped:
 * nothing to read, wait for or write.
 */
async function sendRequest(call: CallState): Promise<Reply> {
  if (!call.costing) return send(call, undefined);
  const costs: CostStages = await import('../cost/stage.js');
  try {
    return await send(call, costs);
  } catch (error) {
    // Not answered: what it reserved of its budgets is given back, unless an attempt went unanswered (cost/stage.ts `failed`).
    await costs.failed(costed(call));
    throw error;
  }
}

/** The call's models and attempts until one is answered; with the cost stage, each model's request reserved in its budgets first. */
async function send(call: CallState, costs: CostStages | undefined): Promise<Reply> {
  const { method } = call.request;
  const { url } = call;
  const { fleet, pool } = call.config;
  // A download is its own address, outside the fleet's bases, quota and budget.
  const concerns = (model: string | undefined) => url === undefined && !fleet.clear(model);
  if (concerns(call.request.model)) await admit(call, call.request.model);
  let request = await nextRequest(call, call.request.model, costs);
  let progress = { baseURL: request.pinned ?? (concerns(request.model) ? await firstBase(call, request.model) : pool.main), retries: 0, redirects: 0, attempts: 0 };
  for (;;) {
    const { model, pinned } = request;
    if (concerns(model)) progress.baseURL = await beforeAttempt(call, progress.baseURL, model, pinned !== undefined);
    const { baseURL } = progress;
    // An absolute URL (a download) is named without its query, which often holds a signed token.
    const info: AttemptInfo = { method, url: url === undefined ? joinURL(baseURL, request.path) : shownURL(url), baseURL, attempt: ++progress.attempts, idempotencyKey: request.headers['idempotency-key'] };
    const telemetry = call.observer?.attempt(info);
    try {
      const reply = await attempt(call, request, info, telemetry);
      telemetry?.end(reply.response.status);
      // A chat request served through /v1/responses: the answer in chat shape (a stream's frames are read so, response.ts).
      if (request.route && reply.data !== undefined && !call.request.stream) reply.data = request.route.reply(reply.data);
      if (concerns(model) || call.tokens > 0) await afterAnswer(call, { base: baseURL, model, data: reply.data });
      call.request.onServed?.(baseURL);
      costs?.answered(costed(call), { model, response: reply.response, data: reply.data, json: sentJSON(call, request) }, call.raw ? 'raw' : call.request.stream ? 'stream' : 'body');
      return { ...reply, model };
    } catch (error) {
      telemetry?.end(undefined, error);
      // Sent and never answered (a timeout, an abort in flight): the gateway may serve and bill it. A refused connection was never sent.
      if (costs && (error instanceof APITimeoutError || error instanceof APIUserAbortError)) costed(call).costing.unanswered = true;
      // Stopped by the caller or the total timeout: nothing to decide, and no base to blame.
      if (call.signal?.aborted) throw call.stopped(`${info.method} ${info.url}`);
      // A refusal that names a parameter or an endpoint the model does not take: learnt, and the request adapted and sent again (once).
      const learnt = await learnFrom(call, request, error, (again) => prepare(call, again));
      if (learnt !== undefined && !(learnt instanceof UnsupportedParameterError)) {
        request = learnt;
        progress = { ...progress, retries: 0, redirects: 0 };
        continue;
      }
      const fallback = await recover(call, request, { error: learnt ?? error, info, progress });
      if (!fallback) continue;
      call.config.events.onModelFallback?.({ from: String(model), to: fallback.fallbackTo, error: fallback.error });
      request = await nextRequest(call, fallback.fallbackTo, costs);
      progress = { baseURL: request.pinned ?? (concerns(request.model) ? await firstBase(call, request.model) : pool.main), retries: 0, redirects: 0, attempts: 0 };
    }
  }
}

/** A model's request, ready to send; with the cost stage, its worst case reserved first in the budgets that hold the call. */
async function nextRequest(call: CallState, model: string | undefined, costs: CostStages | undefined): Promise<PreparedRequest> {
  const request = await prepareFor(call, model);
  if (costs) await costs.reserve(costed(call), { model: request.model, json: sentJSON(call, request) });
  return request;
}

/** A call the cost stage works on: one whose client has `cost` or `budgets`. */
const costed = (call: CallState) => call as CallState & { costing: NonNullable<CallState['costing']> };

/** The body a model's request carries, as the cost stage reads it (`max_tokens`, `n`, `duration`): the JSON sent, or a multipart form's fields. */
const sentJSON = (call: CallState, request: PreparedRequest): unknown => request.json ?? call.body ?? call.request.form?.fields;

/**
 * A model's request, ready to send; one its model's rules refuse before sending
 * (UnsupportedParameterError) moves the call on to its next fallback model, as the gateway's
 * own refusal would (decide.ts), and is thrown when none is left.
 */
async function prepareFor(call: CallState, model: string | undefined): Promise<PreparedRequest> {
  for (;;) {
    try {
      return await prepare(call, model);
    } catch (error) {
      const next = error instanceof UnsupportedParameterError ? call.models.shift() : undefined;
      if (next === undefined) throw error;
      call.config.events.onModelFallback?.({ from: String(model), to: next, error: error as UnsupportedParameterError });
      model = next;
    }
  }
}

/** Request headers as a plain object with lower-case names (cheaper than a Headers per request). */
function buildHeaders(call: CallState, formType: string | undefined): Record<string, string> {
  const { request } = call;
  // The authorization header is set per attempt (a key function may rotate the key).
  const headers: Record<string, string> = {
    accept: request.stream ? 'text/event-stream' : request.download ? '*/*' : request.responseType === 'text' ? 'text/plain, application/json' : 'application/json',
  };
  if (formType) headers['content-type'] = formType;
  else if (request.body !== undefined) headers['content-type'] = 'application/json';
  // A download from another origin (a CDN) gets none of the client's headers: they may hold credentials.
  if (call.auth) copyHeaders(call.config.defaultHeaders, headers);
  if (call.options.headers) copyHeaders(call.options.headers, headers);
  // One key per logical POST, identical on every retry and failover attempt.
  if (request.method === 'POST' && !headers['idempotency-key']) headers['idempotency-key'] = `ug-${uuid()}`;
  return headers;
}

/** Copies headers under lower-case names (no entries array: this runs for every request). */
function copyHeaders(from: Record<string, string>, to: Record<string, string>): void {
  for (const k in from) if (Object.hasOwn(from, k)) to[k.toLowerCase()] = from[k] as string;
}
