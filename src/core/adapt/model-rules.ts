import { ValidationError } from '../errors.js';
import { isRecord } from '../../internal/is-record.js';

// What each model behind the gateway takes (docs/models.md): the parameters it refuses or
// names another way, and the endpoint it answers on. One table per model id or prefix: the
// client's `modelRules` first, then what the fleet learnt from the gateway's own 400s, then
// the built-in table below. How reasoning goes back (`reasoning`) is the chat resource's
// (resources/chat/completions/reasoning.ts): the client hands it the `reasoning` of each entry.

/**
 * Whether a model's reasoning goes back in later assistant turns: on every assistant turn,
 * on those that called tools, or never. See docs/chat.md#reasoning-models.
 */
export type ReasoningSend = 'always' | 'tool-calls' | 'never';

/** The message field reasoning goes back in. */
export type ReasoningField = 'reasoning_content' | 'reasoning';

/**
 * How a model takes its reasoning back (the client's `reasoningRules`, over the built-in
 * table of docs/chat.md#reasoning-models). A turn the rule names carries the field, empty
 * when the model gave no reasoning on it.
 * @example { send: 'tool-calls', field: 'reasoning_content' }
 */
export interface ReasoningRule {
  /** Which assistant turns carry the reasoning: every one, those with tool calls, or none. */
  send: ReasoningSend;
  /** @default 'reasoning_content' */
  field?: ReasoningField | undefined;
}

/** A rule with its field filled in: how the client sends reasoning back for a model. */
export interface ResolvedReasoningRule {
  send: ReasoningSend;
  field: ReasoningField;
}

/**
 * What to do with one parameter for a model:
 * - another parameter's name: renamed to it (the same meaning: `max_tokens` → `max_completion_tokens`);
 * - `'drop'`: never sent, whatever its value (the request changes: the model samples with its default);
 * - `'unsupported'`: the model does not take it: a value that is the parameter's default (or
 *   null) is left out, any other refuses the call before sending with `UnsupportedParameterError`.
 */
export type ParamRule = 'drop' | 'unsupported' | (string & {});

/** The endpoint a chat model answers on: `responses` serves `chat.completions.create` through `/v1/responses`. */
export type ModelEndpoint = 'chat' | 'responses';

/** Where a model's rule came from, as `onAdapt` and `UnsupportedParameterError` tell it. */
export type RuleSource = 'built-in' | 'learned' | 'rule';

/**
 * What one model (or every model of a prefix ending in `*`) takes, as `modelRules` holds it:
 * how its reasoning goes back, the parameters it renames, drops or refuses, its endpoint.
 * See docs/models.md.
 * @example { params: { max_tokens: 'max_completion_tokens', temperature: 'drop' }, endpoint: 'chat' }
 */
export interface ModelRule extends ModelParamRules {
  /** How its reasoning goes back on later turns (0.4's `reasoningRules` entry). */
  reasoning?: ReasoningRule | undefined;
  /**
   * The most tokens it answers with: what a budgeted call without `max_tokens` reserves for
   * its answer (docs/cost.md). Not sent.
   */
  maxOutputTokens?: number | undefined;
}

/** A model's parameters and endpoint, as one entry of `modelRules` (with `reasoning`) takes them. */
export interface ModelParamRules {
  /** Per parameter of the chat request: rename, drop, or refuse what the model does not take. */
  params?: Readonly<Record<string, ParamRule>> | undefined;
  /** @default 'chat' */
  endpoint?: ModelEndpoint | undefined;
}

/** One parameter's rule for a model, and where it came from (`key`: the table entry that gave it). */
export interface ResolvedParam {
  rule: ParamRule;
  source: RuleSource;
  key: string;
}

/** What a model takes, every source merged: the user's entry wins, then the learnt, then the built-in. */
export interface ResolvedModel {
  params: ReadonlyMap<string, ResolvedParam>;
  endpoint: { value: ModelEndpoint; source: RuleSource; key: string } | undefined;
}

/** The client's entries, checked at construction: a list by specificity (exact ids, then longer prefixes first). */
export interface UserModelRules {
  readonly entries: ReadonlyArray<{ key: string; params: ReadonlyMap<string, ParamRule>; endpoint: ModelEndpoint | undefined; maxOutputTokens?: number | undefined }>;
}

/** The `maxOutputTokens` of the most specific of the user's entries for `model` that sets one. */
export function maxOutputTokensOf(user: UserModelRules, model: string): number | undefined {
  return userEntriesFor(user, model).find((entry) => entry.maxOutputTokens !== undefined)?.maxOutputTokens;
}

/** A parameter's value that leaves the request as the model's default would: left out where the model does not take the parameter. */
export const PARAM_DEFAULTS: Readonly<Record<string, unknown>> = { temperature: 1, top_p: 1, n: 1, presence_penalty: 0, frequency_penalty: 0, logprobs: false };

/**
 * The families the built-in table knows, tested against the id's last path segment,
 * lowercased (`openai/gpt-5-mini` is `gpt-5-mini`); every entry that matches applies, the
 * earlier first. Each names its source; docs/models.md lists them.
 */
const BUILT_IN: ReadonlyArray<{ name: string; pattern: RegExp; rules: ModelParamRules }> = [
  // o1-pro, o3-pro and the codex models answer only on /v1/responses: chat/completions is a 404
  // ("not a chat model", "only supported in v1/responses"): https://platform.openai.com/docs/models/o3-pro,
  // https://github.com/aaif-goose/goose/issues/2564, https://github.com/alvinunreal/tmuxai/issues/82
  { name: 'openai-responses-only', pattern: /^(o[1-9]-pro|codex-|gpt-5(\.\d+)?-codex)/, rules: { endpoint: 'responses' } },
  // o1-mini and o1-preview take no tools (a 404 "tools is not supported in this model"):
  // https://github.com/UKGovernmentBEIS/inspect_ai/pull/1290
  { name: 'openai-o1-early', pattern: /^o1-(mini|preview)/, rules: { params: { tools: 'unsupported' } } },
  // The reasoning models (o-series, gpt-5 but its chat variant): `max_tokens` refused ("Use
  // 'max_completion_tokens' instead"), sampling parameters other than the default refused:
  // https://learn.microsoft.com/azure/ai-foundry/openai/how-to/reasoning#not-supported,
  // https://github.com/fish2018/YPrompt/issues/26, https://github.com/gabrii/Cursor-Azure-GPT-5/issues/33
  {
    name: 'openai-reasoning',
    pattern: /^(o[1-9](?![0-9])|gpt-5(?!(\.\d+)?-chat))/,
    rules: {
      params: {
        max_tokens: 'max_completion_tokens',
        temperature: 'unsupported',
        top_p: 'unsupported',
        presence_penalty: 'unsupported',
        frequency_penalty: 'unsupported',
        logprobs: 'unsupported',
        top_logprobs: 'unsupported',
        logit_bias: 'unsupported',
      },
    },
  },
];

/**
 * The built-in entries that apply to `model`, as `[name, rules]`, the first to apply first.
 * Only for an id without a vendor path: `openai/gpt-5` is a router's id (OpenRouter), and a
 * router adapts the request to the vendor itself; what it refuses is learnt.
 */
export function builtInRulesFor(model: string): ReadonlyArray<{ name: string; rules: ModelParamRules }> {
  if (model.includes('/')) return [];
  const id = model.toLowerCase();
  return BUILT_IN.filter((entry) => entry.pattern.test(id));
}

export const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_.]{0,63}$/;

/** Names no rule may change or rename to: what every request needs, and what would reach an object's prototype. */
const RESERVED: ReadonlySet<string> = new Set(['model', 'messages', 'stream', '__proto__', 'constructor', 'prototype']);

/** A parameter a rule may name: a parameter's name, not one every request needs. */
export const isRuleParam = (name: string): boolean => PARAM_NAME.test(name) && !RESERVED.has(name);

/**
 * The renames a lesson from the network may teach (the gateway's words, or a store's record):
 * only these, which keep the request's meaning. Any other "use X instead" is learnt as
 * 'unsupported': the network never chooses what a request carries instead.
 */
export const KNOWN_RENAMES: Readonly<Record<string, string>> = { max_tokens: 'max_completion_tokens' };
const ENDPOINTS: readonly string[] = ['chat', 'responses'];

/** A user's id or prefix key, as `modelRules` and `reasoningRules` take it. */
export const isRuleKey = (key: string): boolean => /^[^*]+\*?$|^\*$/.test(key);

/**
 * The `params` and `endpoint` of the client's `modelRules`, checked (ValidationError at
 * construction) and ordered by specificity. The `reasoning` of each entry is the chat
 * resource's to check (reasoning-rules.ts).
 */
export function resolveModelRules(rules: unknown): UserModelRules {
  if (rules === undefined) return { entries: [] };
  if (!isRecord(rules)) throw new ValidationError('modelRules', "must map model ids (or prefixes ending in *) to rules, e.g. { 'gpt-5*': { params: { temperature: 'drop' } } }");
  const entries = Object.entries(rules).map(([key, rule]: [string, unknown]) => {
    const name = `modelRules.${key}`;
    if (!isRuleKey(key)) throw new ValidationError(name, 'must be a model id, or a prefix ending in *');
    if (!isRecord(rule)) throw new ValidationError(name, "must be a rule { params?, endpoint?, reasoning? }, e.g. { params: { max_tokens: 'max_completion_tokens' } }");
    const { params, endpoint, reasoning: _, maxOutputTokens, ...rest } = rule;
    const unknown = Object.keys(rest)[0];
    if (unknown !== undefined) throw new ValidationError(`${name}.${unknown}`, 'is not a rule option: use params, endpoint, reasoning or maxOutputTokens');
    if (maxOutputTokens !== undefined && !(Number.isInteger(maxOutputTokens) && (maxOutputTokens as number) > 0 && (maxOutputTokens as number) <= 1e8)) throw new ValidationError(`${name}.maxOutputTokens`, 'must be a whole number of tokens above 0');
    if (endpoint !== undefined && !ENDPOINTS.includes(endpoint as string)) throw new ValidationError(`${name}.endpoint`, "must be 'chat' or 'responses'");
    return { key, params: checkParams(`${name}.params`, params), endpoint: endpoint as ModelEndpoint | undefined, maxOutputTokens: maxOutputTokens as number | undefined };
  });
  return { entries: entries.sort((a, b) => specificity(b.key) - specificity(a.key)) };
}

function checkParams(name: string, params: unknown): ReadonlyMap<string, ParamRule> {
  const checked = new Map<string, ParamRule>();
  if (params === undefined) return checked;
  if (!isRecord(params)) throw new ValidationError(name, "must map parameter names to 'drop', 'unsupported' or the name to send instead");
  for (const [param, rule] of Object.entries(params)) {
    if (!isRuleParam(param)) throw new ValidationError(`${name}.${param}`, 'is not a parameter a rule may change');
    // 'Drop' is a misspelt 'drop', not a parameter of that name.
    const word = typeof rule === 'string' && /^(drop|unsupported)$/i.test(rule);
    if (typeof rule !== 'string' || (word ? rule !== 'drop' && rule !== 'unsupported' : !isRuleParam(rule)) || rule === param) {
      throw new ValidationError(`${name}.${param}`, "must be 'drop', 'unsupported' or the name of the parameter to send instead");
    }
    checked.set(param, rule);
  }
  // A rename to a parameter the same entry renames again (a → b, b → a) would send neither.
  for (const [param, rule] of checked) {
    if (rule !== 'drop' && rule !== 'unsupported' && checked.has(rule)) throw new ValidationError(`${name}.${param}`, `renames to ${rule}, which this rule changes too`);
  }
  return checked;
}

/** An exact id outranks every prefix; a longer prefix a shorter one; `'*'` comes last. */
const specificity = (key: string): number => (key.endsWith('*') ? key.length - 1 : 10_000);

/** The user's entries that apply to `model`, the most specific first. `'*'` is left for last: it covers what nothing else does. */
const userEntriesFor = (user: UserModelRules, model: string) => user.entries.filter((entry) => entry.key === model || (entry.key.endsWith('*') && model.startsWith(entry.key.slice(0, -1))));

/**
 * What `model` takes: for each parameter and the endpoint, the most specific of the user's
 * entries that names it, else what the fleet learnt, else the built-in table, else the user's
 * `'*'` entry (a catch-all covers what nothing more specific does). Undefined when nothing
 * applies: the request goes as it is.
 */
export function resolveModel(model: string, user: UserModelRules, learned: ModelParamRules | undefined): ResolvedModel | undefined {
  // Resolved once per model and what was learnt of it: a call looks it up.
  let known = resolvedOf.get(user);
  if (!known) resolvedOf.set(user, (known = new Map()));
  const hit = known.get(model);
  if (hit && hit.learned === learned) return hit.resolved;
  if (known.size >= 1_000) known.clear();
  const resolved = resolveFresh(model, user, learned);
  known.set(model, { learned, resolved });
  return resolved;
}

/** What `resolveModel` found, per client's rules and model, with the learnt rules it was found with. */
const resolvedOf = new WeakMap<UserModelRules, Map<string, { learned: ModelParamRules | undefined; resolved: ResolvedModel | undefined }>>();

function resolveFresh(model: string, user: UserModelRules, learned: ModelParamRules | undefined): ResolvedModel | undefined {
  const own = userEntriesFor(user, model);
  const builtIn = builtInRulesFor(model);
  if (own.length === 0 && builtIn.length === 0 && learned === undefined) return undefined;
  const params = new Map<string, ResolvedParam>();
  let endpoint: ResolvedModel['endpoint'];
  const add = (rules: ModelParamRules | { params: ReadonlyMap<string, ParamRule>; endpoint: ModelEndpoint | undefined }, source: RuleSource, key: string) => {
    const entries = rules.params instanceof Map ? [...rules.params] : Object.entries(rules.params ?? {});
    for (const [param, rule] of entries) if (!params.has(param)) params.set(param, { rule, source, key });
    if (endpoint === undefined && rules.endpoint !== undefined) endpoint = { value: rules.endpoint, source, key };
  };
  for (const entry of own) if (entry.key !== '*') add(entry, 'rule', entry.key);
  if (learned) add(learned, 'learned', model);
  for (const entry of builtIn) add(entry.rules, 'built-in', entry.name);
  for (const entry of own) if (entry.key === '*') add(entry, 'rule', entry.key);
  if (params.size === 0 && endpoint === undefined) return undefined;
  return { params, endpoint };
}

/** How long what the gateway taught about a model is kept (a gateway's channels change; a new 400 teaches again). */
export const LEARNED_MS = 24 * 60 * 60_000;
