import { ValidationError } from '../core/errors.js';

/**
 * Tag for request paths. Each value is given as `{ field: value }` (write `${{ id }}`), so a
 * refusal can name the caller's field. Every value is URI-encoded, so `a/b?c` can never
 * change the route; and a value that would still change it is refused with a
 * ValidationError: an empty one, or the dot segments `.` and `..`, which encodeURIComponent
 * leaves as they are and every URL parser then resolves (`models/..` is the API root).
 * @example path`models/${{ id }}` // 'models/vendor%2Fmodel' for id 'vendor/model'
 */
export function path(strings: TemplateStringsArray, ...values: Array<Readonly<Record<string, string | number>>>): string {
  let out = strings[0] ?? '';
  values.forEach((named, i) => {
    const [field, value] = Object.entries(named)[0] ?? ['path', ''];
    if (/^\.{0,2}$/.test(String(value))) throw new ValidationError(field, "must be an id other than '', '.' and '..'");
    out += encodeURIComponent(value) + (strings[i + 1] ?? '');
  });
  return out;
}
