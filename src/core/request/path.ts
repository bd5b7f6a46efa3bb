import { ValidationError } from '../errors.js';

/**
 * A request path with its `{name}` placeholders filled from `params`, so a refusal names the
 * caller's field. Every value is URI-encoded, so `a/b?c` can never change the route; a value
 * that would still change it is refused with a ValidationError: a missing or empty one, or
 * the dot segments `.` and `..`, which encodeURIComponent leaves as they are and every URL
 * parser then resolves (`models/..` is the API root).
 * @example expandPath('models/{id}', { id: 'vendor/model' }) // 'models/vendor%2Fmodel'
 */
export function expandPath(template: string, params: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{(\w+)\}/g, (_, field: string) => {
    const value = params[field];
    if (typeof value !== 'string' || /^\.{0,2}$/.test(value)) throw new ValidationError(field, "must be an id (a non-empty string) other than '', '.' and '..'");
    return encodeURIComponent(value);
  });
}
