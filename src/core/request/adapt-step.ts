import { adaptParams, refusedByGateway, unsupportedParameter } from '../adapt/adapt.js';
import { lessonOf, withLesson, type Lesson } from '../adapt/lessons.js';
import { resolveModel } from '../adapt/model-rules.js';
import { hasCredential } from '../../internal/credential-headers.js';
import { APIError, UnsupportedParameterError, ValidationError } from '../errors.js';
import { joinURL } from './attempt.js';
import type { CallState, PreparedRequest } from './call-state.js';
import type { ResponsesRoute } from '../types.js';

// The chat request as each model takes it (docs/models.md): before it is sent to a model
// (`adaptTo`), its parameters are renamed, left out or refused by the model's rules, and a
// model that answers only on /v1/responses is served there; after the gateway refused it
// (`learnFrom`), what the refusal names is learnt for the fleet and the request adapted and
// sent again, once. A request no rule concerns goes as it is.

/** The longest a refused call waits for the gateway's table (`listedLesson`) before its refusal stands. */
const TABLE_WAIT_MS = 10_000;

/** Statuses a refusal of a parameter or an endpoint comes with (OpenAI answers 404 to a model without tools and to a responses-only model). */
const REFUSALS: ReadonlySet<number> = new Set([400, 404, 422]);


/** A chat body adapted to one model: where it goes and how its answer comes back. */
export interface AdaptedRequest {
  body: Record<string, unknown>;
  path: string;
  route: ResponsesRoute | undefined;
}

/**
 * `body` as `model` takes it, or undefined when no rule concerns the model. Throws
 * UnsupportedParameterError (nothing sent) for a parameter it does not take that cannot be
 * left out without changing the request. `usage`: the caller (or telemetry) asked a stream for its usage.
 */
export async function adaptTo(call: CallState, model: string, body: Record<string, unknown>): Promise<AdaptedRequest | undefined> {
  const { fleet, modelRules, pool, events } = call.config;
  // With a store, what the fleet learnt of the model comes with its other records (one read every VIEW_MS).
  if (fleet.shared) await fleet.view(model);
  const resolved = resolveModel(model, modelRules, fleet.learnt(model));
  if (!resolved) return undefined;
  const adapted = adaptParams(model, body, resolved, joinURL(pool.main, call.path));
  let out: AdaptedRequest = { body: adapted.body, path: call.path, route: undefined };
  if (adapted.endpoint === 'responses') out = await reroute(call, model, adapted.body);
  for (const change of adapted.changes) events.onAdapt?.(change);
  return out;
}

/** A chat request for a model that answers only on /v1/responses, as that endpoint takes it. */
async function reroute(call: CallState, model: string, body: Record<string, unknown>): Promise<AdaptedRequest> {
  const loader = call.request.adapt;
  if (!loader) throw new ValidationError('model', `${model} answers only on /v1/responses; use client.responses.create`);
  // A raw Response would be that endpoint's, not the chat answer the caller reads.
  if (call.raw) throw new ValidationError('asResponse()', `${model} is served through /v1/responses, whose answer is not chat's: use withResponse() instead`);
  const route = await loader.responses();
  const converted = route.request(body);
  const param = converted.unsupported[0];
  if (param !== undefined) throw unsupportedParameter(model, param, `${model} answers only on /v1/responses, which has no ${param}; nothing was sent`, joinURL(call.config.pool.main, 'responses'));
  return { body: converted.body, path: 'responses', route };
}

/**
 * What the gateway's own table (`supported_endpoint_types`) says of a model whose refusal did
 * not say why: that it answers on /v1/responses and not on chat/completions, or nothing. A
 * table that cannot be read says nothing (the refusal stands).
 */
async function listedLesson(call: CallState, model: string): Promise<Lesson | undefined> {
  // Waited for no longer than one of the call's attempts (at most TABLE_WAIT_MS): the read is shared and goes on for others.
  const waitMs = Math.min(call.options.timeout ?? call.config.timeout, TABLE_WAIT_MS);
  const listed = await call.request.adapt?.listedEndpoints(model, { signal: call.signal, waitMs }).catch(() => undefined);
  return listed?.includes('openai-response') && !listed.includes('openai') ? { endpoint: 'responses' } : undefined;
}

/**
 * After the gateway refused `request`: when the refusal names a parameter or an endpoint its
 * model does not take (adapt/lessons.ts; or, for a 404 that names nothing, the gateway's
 * table lists the model on /v1/responses only), that is learnt for the fleet, and the request as the
 * model now takes it is returned to be sent again (once per model and call). When leaving the
 * parameter out would change the request, the refusal comes back as an
 * UnsupportedParameterError, which moves the call to its next fallback model (decide.ts).
 * Undefined when the refusal taught nothing.
 */
export async function learnFrom(call: CallState, request: PreparedRequest, error: unknown, prepare: (model: string) => Promise<PreparedRequest>): Promise<PreparedRequest | UnsupportedParameterError | undefined> {
  const { model, json } = request;
  if (!call.request.adapt || model === undefined || json === undefined || !(error instanceof APIError) || error instanceof UnsupportedParameterError || !REFUSALS.has(error.status)) return undefined;
  // A call with its own credential (a per-call key) may reach other channels than the client's
  // key: what its refusal says is not the fleet's to learn.
  if (hasCredential(call.options.headers) || hasCredential(call.config.defaultHeaders)) return undefined;
  // A 404 on chat/completions that does not say why may be a model served elsewhere: its table says.
  const lesson = lessonOf(error, json) ?? (error.status === 404 && request.path === call.path ? await listedLesson(call, model) : undefined);
  if (!lesson) return undefined;
  const { fleet } = call.config;
  await fleet.learn(model, withLesson(fleet.learnt(model), lesson));
  const refused = 'param' in lesson ? refusedByGateway(error, model, lesson.param) : undefined;
  if ((call.relearnt ??= new Set()).has(model)) return refused;
  call.relearnt.add(model);
  let next: PreparedRequest;
  try {
    next = await prepare(model);
  } catch (failure) {
    // What was learnt refuses the request before sending: the gateway's own words say why. A
    // reroute this request cannot take (a parameter /v1/responses has not, asResponse()) leaves
    // the gateway's refusal as it was: this request was sent, and answered so.
    if ('endpoint' in lesson && (failure instanceof UnsupportedParameterError || failure instanceof ValidationError)) return undefined;
    if (failure instanceof UnsupportedParameterError) return refused ?? failure;
    throw failure;
  }
  // The lesson changed nothing this client would send (a rule of the user's sends it anyway).
  return next.body === request.body && next.path === request.path ? refused : next;
}
