import { ValidationError } from '../../../core/errors.js';
import type { ReasoningRule, ResolvedReasoningRule } from '../../../core/types.js';
import { isRecord } from '../../../internal/is-record.js';

// The client's `reasoningRules`, checked at construction. Apart from the table (reasoning.ts,
// loaded with runTools) and kept short: every app carries it with the client.

const SENDS = ['always', 'tool-calls', 'never'];
const FIELDS = ['reasoning_content', 'reasoning'];

/** The client's `reasoningRules`, checked (ValidationError) and with each rule's field filled in. */
export function resolveReasoningRules(rules: unknown, nameOf = (id: string) => `reasoningRules.${id}`): Readonly<Record<string, ResolvedReasoningRule>> {
  if (rules === undefined) return {};
  if (!isRecord(rules)) throw new ValidationError('reasoningRules', 'must map model ids (or prefixes ending in *) to rules');
  // fromEntries, not assignment: an id such as "__proto__" stays an id.
  return Object.fromEntries(
    Object.entries(rules).map(([id, rule]: [string, unknown]) => {
      const name = nameOf(id);
      if (!/^[^*]+\*?$|^\*$/.test(id)) throw new ValidationError(name, 'must be a model id, or a prefix ending in *');
      if (!isRecord(rule)) throw new ValidationError(name, "must be a rule { send, field? }, e.g. { send: 'tool-calls' }");
      const { send, field = FIELDS[0], ...rest } = rule;
      // A misspelt key (feild) would otherwise leave the default in place, unseen.
      const unknown = Object.keys(rest)[0];
      if (unknown !== undefined) throw new ValidationError(`${name}.${unknown}`, 'is not a rule option: use send or field');
      if (!SENDS.includes(send as string)) throw new ValidationError(`${name}.send`, `must be one of ${SENDS.join(', ')}`);
      if (!FIELDS.includes(field as string)) throw new ValidationError(`${name}.field`, `must be one of ${FIELDS.join(', ')}`);
      return [id, { send, field } as ResolvedReasoningRule];
    }),
  );
}

/** The `reasoning` of each `modelRules` entry that has one, as `reasoningRules` would hold it (the entries themselves are checked by core/adapt/model-rules.ts). */
export function reasoningOf(modelRules: unknown): Record<string, unknown> | undefined {
  if (!isRecord(modelRules)) return undefined;
  return Object.fromEntries(Object.entries(modelRules).flatMap(([id, rule]: [string, unknown]) => (isRecord(rule) && rule.reasoning !== undefined ? [[id, rule.reasoning]] : [])));
}
