/** The headers that carry a credential on a call (a per-call key): the response cache partitions by them, and what a call with one is refused does not teach the fleet. */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'api-key', 'x-api-key', 'x-goog-api-key', 'cookie']);
