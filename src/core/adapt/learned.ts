import { isRecord } from '../../internal/is-record.js';
import { readJSON } from '../../internal/read-json.js';
import { isRuleParam, KNOWN_RENAMES, type ModelEndpoint, type ModelParamRules, type ParamRule } from './model-rules.js';

// What a fleet learnt about a model (adapt/lessons.ts), as its store keeps it: written and read
// with the fleet's other records by fleet/shared-fleet.ts, which a client loads with a store.

/** The format of a learnt record in a store; another is ignored (and rewritten by the next lesson). */
const LEARNED_FORMAT = 1;

/** What was learnt of a model, as a store keeps it. */
export const learnedText = (rules: ModelParamRules): string => JSON.stringify({ v: LEARNED_FORMAT, params: rules.params ?? {}, endpoint: rules.endpoint });

/**
 * A learnt record read back from a store, checked as untrusted input: undefined unless it is
 * this format's object whose parameters and rules are names (at most 32) and whose endpoint
 * is one this client knows. Never an error.
 */
export function readLearned(text: string | null | undefined): ModelParamRules | undefined {
  const value = readJSON(text, 4_096);
  if (!isRecord(value) || value.v !== LEARNED_FORMAT || !isRecord(value.params)) return undefined;
  const entries = Object.entries(value.params);
  if (entries.length > 32) return undefined;
  const params: Record<string, ParamRule> = {};
  for (const [param, rule] of entries) {
    // Only what a lesson may teach (adapt/lessons.ts): 'unsupported', or a rename known to keep the meaning. Never 'drop'.
    if (!isRuleParam(param) || (rule !== 'unsupported' && KNOWN_RENAMES[param] !== rule)) return undefined;
    params[param] = rule as ParamRule;
  }
  if (value.endpoint !== undefined && value.endpoint !== 'responses' && value.endpoint !== 'chat') return undefined;
  return value.endpoint === undefined ? { params } : { params, endpoint: value.endpoint as ModelEndpoint };
}
