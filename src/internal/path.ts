/**
 * Tag for request paths: every interpolated value is URI-encoded, so an id such as
 * `a/b?c` can never change the route. `path\`models/${id}\``
 */
export function path(strings: TemplateStringsArray, ...values: Array<string | number>): string {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += encodeURIComponent(String(value)) + (strings[i + 1] ?? '');
  });
  return out;
}
