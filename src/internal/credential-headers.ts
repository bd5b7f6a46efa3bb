/** The headers that carry a credential on a call (a per-call key): the response cache partitions by them, and what a call with one is refused does not teach the fleet. */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'api-key', 'x-api-key', 'x-goog-api-key', 'cookie']);

/** Whether per-call headers carry a credential of their own. */
export const hasCredential = (headers: Readonly<Record<string, string>> | undefined): boolean => headers !== undefined && Object.keys(headers).some((name) => CREDENTIAL_HEADERS.has(name.toLowerCase()));
