import { allowingRule, UnsupportedParameterError, type APIError } from '../errors.js';
import { parseErrorBody } from '../error-factory.js';
import { isRuleParam, PARAM_DEFAULTS, type ResolvedModel, type ResolvedParam, type RuleSource } from './model-rules.js';

// Before a chat request is sent to a model: each parameter the model's rule names is renamed,
// left out, or refused (UnsupportedParameterError, nothing sent), and the endpoint chosen. A
// change that keeps the request's meaning is always made; one that changes it only where a
// rule says 'drop'. The request path (request/call.ts `prepare`) calls it for each model of a
// call, only when a rule applies (model-rules.ts `resolveModel`).

/** What the client changed in a request before sending it, and why (`onAdapt`, and the debug log). */
export interface AdaptInfo {
  /** The model the request went to. */
  model: string;
  /** The parameter changed; absent when the whole request was rerouted. */
  param?: string | undefined;
  /** `renamed` to `to`; `dropped` (left out); `rerouted` to the `to` endpoint. */
  action: 'renamed' | 'dropped' | 'rerouted';
  /** The new name of a renamed parameter, or the endpoint of a rerouted request (`responses`). */
  to?: string | undefined;
  /** Whose rule it was: the built-in table, what the fleet learnt from the gateway's 400, or the client's `modelRules`. */
  source: RuleSource;
  /** Why, in words: `gpt-5 takes max_completion_tokens instead (built-in rule openai-reasoning)`. */
  reason: string;
}

/** A request body adapted to its model, with what changed. */
export interface Adapted {
  body: Record<string, unknown>;
  changes: AdaptInfo[];
  /** The endpoint the request goes to. */
  endpoint: 'chat' | 'responses';
}

/**
 * `body` as `model` takes it, by its resolved rules. Throws UnsupportedParameterError for a
 * parameter the model does not take whose value would change the request when left out.
 * `url` names the endpoint in that error.
 */
export function adaptParams(model: string, body: Record<string, unknown>, resolved: ResolvedModel, url: string): Adapted {
  // What to leave out and what to rename, then one new body: `delete` would turn it into a slow dictionary object for JSON.stringify.
  const left = new Set<string>();
  const renamed = new Map<string, string>();
  const changes: AdaptInfo[] = [];
  for (const [param, rule] of resolved.params) {
    if (!Object.hasOwn(body, param)) continue;
    const value = body[param];
    const by = ruleName(rule);
    if (rule.rule === 'drop') {
      left.add(param);
      changes.push({ model, param, action: 'dropped', source: rule.source, reason: `${model} is sent without ${param} (${by})` });
    } else if (rule.rule === 'unsupported') {
      const isDefault = value === null || value === undefined || (Object.hasOwn(PARAM_DEFAULTS, param) && PARAM_DEFAULTS[param] === value) || (Array.isArray(value) && value.length === 0);
      if (!isDefault) throw refusal(model, { param, value }, by, url);
      left.add(param);
      changes.push({ model, param, action: 'dropped', source: rule.source, reason: `${model} does not take ${param}; ${JSON.stringify(value)} is its default (${by})` });
    } else {
      // A rename the body already made (both names given) keeps the caller's value of the new name.
      if (Object.hasOwn(body, rule.rule)) left.add(param);
      else renamed.set(param, rule.rule);
      changes.push({ model, param, action: 'renamed', to: rule.rule, source: rule.source, reason: `${model} takes ${rule.rule} instead of ${param} (${by})` });
    }
  }
  // Without its tools, a request's tool_choice and parallel_tool_calls mean nothing (and a host refuses them alone).
  if (left.has('tools')) {
    for (const param of ['tool_choice', 'parallel_tool_calls']) {
      if (!Object.hasOwn(body, param) || left.has(param)) continue;
      left.add(param);
      changes.push({ model, param, action: 'dropped', source: resolved.params.get('tools')?.source ?? 'rule', reason: `${model} is sent without tools, so without ${param}` });
    }
  }
  const out = left.size + renamed.size === 0 ? body : Object.fromEntries(Object.keys(body).flatMap((key) => (left.has(key) ? [] : [[renamed.get(key) ?? key, body[key]]])));
  const endpoint = resolved.endpoint?.value ?? 'chat';
  if (resolved.endpoint && endpoint === 'responses') {
    changes.push({ model, action: 'rerouted', to: 'responses', source: resolved.endpoint.source, reason: `${model} answers only on /v1/responses (${ruleName(resolved.endpoint)})` });
  }
  return { body: out, changes, endpoint };
}

const ruleName = (rule: Pick<ResolvedParam, 'source' | 'key'>): string =>
  rule.source === 'rule' ? `modelRules['${rule.key}']` : rule.source === 'learned' ? 'learnt from the gateway' : `built-in rule ${rule.key}`;

function refusal(model: string, { param, value }: { param: string; value: unknown }, by: string, url: string): UnsupportedParameterError {
  const shown = JSON.stringify(value)?.slice(0, 80) ?? String(value);
  const fallback = Object.hasOwn(PARAM_DEFAULTS, param) ? ` (only its default, ${JSON.stringify(PARAM_DEFAULTS[param])})` : '';
  return unsupportedParameter(model, param, `${model} does not take ${param} ${shown}${fallback} (${by}); nothing was sent`, url);
}

/** The error for a parameter `model` does not take, before anything is sent; the message says which rule would drop it. */
export function unsupportedParameter(model: string, param: string, why: string, url: string): UnsupportedParameterError {
  const allowedBy = isRuleParam(param) ? allowingRule(model, param) : null;
  const message = allowedBy ? `${why}. Leaving it out changes the request: to allow it, add modelRules: ${allowedBy}` : `${why}.`;
  return new UnsupportedParameterError({
    status: 400,
    error: { message, type: 'invalid_request_error', code: 'unsupported_parameter', param },
    headers: new Headers(),
    message,
    code: 'unsupported_parameter',
    type: 'invalid_request_error',
    param,
    method: 'POST',
    url,
    retryAfterMs: null,
    requestID: null,
    model,
    allowedBy,
  });
}

/** The gateway's own refusal of a parameter `model` does not take, as an UnsupportedParameterError (its status, body and request id kept). */
export function refusedByGateway(error: APIError, model: string, param: string): UnsupportedParameterError {
  return new UnsupportedParameterError({
    status: error.status,
    error: error.error,
    headers: error.headers,
    // The server's own words (the error's message would repeat the status and code).
    message: `${parseErrorBody(error.error).message ?? error.message} The gateway refused ${param} for ${model} (learnt: the fleet leaves it out where that keeps the request's meaning). To send the request without it, add modelRules: ${allowingRule(model, param)}`,
    code: error.code,
    type: error.type,
    param,
    method: 'POST',
    url: error.url,
    retryAfterMs: null,
    requestID: error.requestID,
    model,
    allowedBy: allowingRule(model, param),
  });
}
