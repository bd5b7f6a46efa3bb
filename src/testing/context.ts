import type { MockModel, MockModelKind } from './catalog.js';
import type { MockCharge } from './ledger.js';

/** What an endpoint handler of the mock gateway gets for one request. */
export interface MockContext {
  /** Request counter value, for ids. */
  id: number;
  /** The parsed JSON body (an empty object when absent). */
  body: Record<string, unknown>;
  /** The multipart form, for upload endpoints. */
  form: FormData | undefined;
  /** `http://host:port` of the request, for URLs the mock hands out. */
  origin: string;
  /** Current time in ms (Date.now(), so fake timers drive it). */
  now: number;
  /** A JSON response with the mock's standard headers. */
  reply(status: number, payload: unknown): Response;
  /** A 400 `invalid_request_error` naming the parameter. */
  invalid(message: string, param: string | null): Response;
  /** 404 `model_not_found` for an unknown id, 400 for a model of the wrong kind; undefined when fine. */
  checkModel(modelId: unknown, kind: MockModelKind, what: string): Response | undefined;
  /** An SSE response of `data: <json>` frames (optionally with `event:` names), shaped by any stream fault. */
  sse(frames: Array<{ event?: string; data: unknown }>, options?: { done?: boolean }): Response;
  /** The catalogue entry for a model id. */
  model(modelId: unknown): MockModel | undefined;
  /** Reports what the call consumed; the mock bills it to the key when the answer is a success. */
  charge(charge: MockCharge): void;
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The text of a message's content (chat or responses), parts joined. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : '')).join(' ').trim();
}

/** Rough token count used for `usage` figures: words, as the mock has no tokenizer. */
export const countWords = (s: string): number => s.split(/\s+/).filter(Boolean).length;

/** Checks an optional number against a range; returns the problem or undefined. */
export function outOfRange(body: Record<string, unknown>, name: string, min: number, max: number, integer = false): string | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || v < min || v > max || (integer && !Number.isInteger(v))) {
    return `${name} must be ${integer ? 'an integer' : 'a number'} between ${min} and ${max}`;
  }
  return undefined;
}
