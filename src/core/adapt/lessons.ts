import { isRuleParam, KNOWN_RENAMES, type ModelParamRules } from './model-rules.js';

// What a gateway's refusal says a model does not take, read from its words. The vendors'
// texts are quoted in testing/family-errors.ts with their sources; gateways pass them on
// inside their own wrapping (new-api's "(request id: …)", LiteLLM's "OpenAIException - …",
// OpenRouter's metadata.raw, which the error's message quotes), so the patterns look inside
// the whole message. A lesson names only a parameter the request actually carried.

/**
 * What a refusal is read from: an `APIError`'s fields (plain data, so an error of another copy
 * of the package, as the command line meets it, reads the same).
 */
export interface Refusal {
  readonly message: string;
  readonly code: string | null;
  readonly param: string | null;
}

/** One thing a refusal taught about a model: a parameter it does not take (or takes under another name), or its endpoint. */
export type Lesson = { param: string; rule: string } | { endpoint: 'responses' };

const PATTERNS: ReadonlyArray<{ re: RegExp; lesson: (m: RegExpMatchArray) => Lesson }> = [
  // "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."
  { re: /Unsupported parameter: '([\w.]+)' is not supported with this model\.(?:\s*Use '([\w.]+)' instead)?/, lesson: (m) => ({ param: m[1] as string, rule: m[2] ?? 'unsupported' }) },
  // "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported."
  { re: /Unsupported value: '([\w.]+)' does not support/, lesson: (m) => ({ param: m[1] as string, rule: 'unsupported' }) },
  // "Unrecognized request argument supplied: foo"
  { re: /Unrecognized request arguments? supplied: ([\w.]+)/, lesson: (m) => ({ param: m[1] as string, rule: 'unsupported' }) },
  // o1-mini: "tools is not supported in this model."; DeepSeek-R1: "deepseek-reasoner does not support Function Calling"
  { re: /\btools is not supported in this model|does not support Function Calling/i, lesson: () => ({ param: 'tools', rule: 'unsupported' }) },
  // "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model."
  { re: /'response_format' of type 'json_schema' is not supported/, lesson: () => ({ param: 'response_format', rule: 'unsupported' }) },
  // "This is not a chat model and thus not supported in the v1/chat/completions endpoint."; "This model is only supported in v1/responses …"
  { re: /(?:This is )?not a chat model and thus not supported in the v1\/chat\/completions|(?:This model is )?only supported in v1\/responses/, lesson: () => ({ endpoint: 'responses' }) },
];

/**
 * What `error` (a 400, 404 or 422: request/adapt-step.ts looks no further otherwise) says `body`'s model does not take, or undefined when it says nothing of the
 * kind (or names a parameter the request did not carry: then the words were about something else).
 */
export function lessonOf(error: Refusal, body: Readonly<Record<string, unknown>>): Lesson | undefined {
  for (const { re, lesson } of PATTERNS) {
    const found = error.message.match(re);
    if (!found) continue;
    return checked(lesson(found), body, found.index === openingOf(error.message));
  }
  // An OpenAI-style code that names the parameter, whatever the words.
  if ((error.code === 'unsupported_parameter' || error.code === 'unsupported_value') && error.param) return checked({ param: error.param, rule: 'unsupported' }, body, false);
  return undefined;
}

/**
 * A lesson as far as it may be trusted: about a parameter the request carried and a rule may
 * name, renamed only as KNOWN_RENAMES allows (else 'unsupported'); a reroute only when the
 * refusal's own words open with it (`opening`), never from a quoted value it echoes.
 */
function checked(lesson: Lesson, body: Readonly<Record<string, unknown>>, opening: boolean): Lesson | undefined {
  if ('endpoint' in lesson) return opening ? lesson : undefined;
  const { param, rule } = lesson;
  if (!isRuleParam(param) || !Object.hasOwn(body, param)) return undefined;
  return { param, rule: rule !== 'unsupported' && KNOWN_RENAMES[param] !== rule ? 'unsupported' : rule };
}

/**
 * Where the server's own words start in an APIError's message (`404 model_not_found: This is
 * …`): past the status, the code, and a gateway's wrapping (LiteLLM's `litellm.NotFoundError:
 * OpenAIException - `, OpenRouter's `Provider returned error (OpenAI: `, as error-factory.ts writes it).
 */
function openingOf(message: string): number {
  const wrapped = /^\d{3} (?:(?!litellm\.)[\w.-]+: )?(?:litellm\.\w+: \w+ - (?:b')?|Provider returned error \((?:[^:()]+: )?)?/.exec(message);
  return wrapped ? wrapped[0].length : 0;
}

/** A lesson added to what was learnt of a model before. */
export function withLesson(learnt: ModelParamRules | undefined, lesson: Lesson): ModelParamRules {
  if ('endpoint' in lesson) return { ...learnt, endpoint: lesson.endpoint };
  return { ...learnt, params: { ...learnt?.params, [lesson.param]: lesson.rule } };
}
