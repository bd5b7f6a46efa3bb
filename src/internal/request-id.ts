/** The request id a response carries: `x-request-id`, else `x-oneapi-request-id` (new-api / one-api). */
export function requestIDFrom(headers: Headers): string | null {
  return headers.get('x-request-id') ?? headers.get('x-oneapi-request-id');
}
