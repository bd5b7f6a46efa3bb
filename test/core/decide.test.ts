import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide, failureKind, isRetryable, type FailureKind, type Situation } from '../../src/core/policy/decide.js';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  GatewayError,
  InsufficientQuotaError,
  InternalServerError,
  NotFoundError,
  ParseError,
  PermissionDeniedError,
  RateLimitError,
  ServiceUnavailableError,
  ValidationError,
} from '../../src/index.js';

const init = (status: number, code: string | null = null, type: string | null = null) => ({
  status,
  error: {},
  headers: new Headers(),
  message: 'm',
  code,
  type,
  param: null,
  method: 'POST',
  url: 'https://gw.test/v1/x',
  retryAfterMs: null,
});

describe('failureKind', () => {
  it.each<[string, unknown, FailureKind]>([
    ['a refused connection', new APIConnectionError(), 'connection'],
    ['a timeout', new APITimeoutError(), 'connection'],
    ['a 500', new InternalServerError(init(500)), 'unavailable'],
    ['a 503', new ServiceUnavailableError(init(503)), 'unavailable'],
    ['a 502 of no known class', new APIError(init(502)), 'unavailable'],
    ['a 429', new RateLimitError(init(429)), 'unavailable'],
    ['a 408', new APIError(init(408)), 'busy'],
    ['a 409', new ConflictError(init(409)), 'busy'],
    ['a 503 model_not_found (new-api)', new ServiceUnavailableError(init(503, 'model_not_found')), 'model-missing'],
    ['a 404 model_not_found', new NotFoundError(init(404, 'model_not_found')), 'model-missing'],
    ['a 429 insufficient_quota', new InsufficientQuotaError(init(429, 'insufficient_quota')), 'quota'],
    ['a 403 insufficient_user_quota', new PermissionDeniedError(init(403, 'insufficient_user_quota')), 'quota'],
    ['a 429 whose type is insufficient_quota', new RateLimitError(init(429, 'x', 'insufficient_quota')), 'quota'],
    ['a 400', new BadRequestError(init(400)), 'final'],
    ['a 400 model_not_found (the caller named it wrong)', new BadRequestError(init(400, 'model_not_found')), 'final'],
    ['a 401', new AuthenticationError(init(401, 'invalid_api_key')), 'final'],
    ['a 403', new PermissionDeniedError(init(403)), 'final'],
    ['a 404', new NotFoundError(init(404)), 'final'],
    ['a rate limit inside a 200', new RateLimitError(init(200, 'rate_limit_exceeded')), 'unavailable'],
    ['a server error inside a 200', new InternalServerError(init(200, 'server_error')), 'unavailable'],
    ['a bad request inside a 200', new BadRequestError(init(200, 'invalid_request_error')), 'final'],
    ['an abort', new APIUserAbortError(), 'final'],
    ['bad arguments', new ValidationError('x', 'y'), 'final'],
    ['an unparseable reply', new ParseError('p', 'c'), 'final'],
    ['an unexpected body', new GatewayError('Expected JSON'), 'final'],
    ['a TypeError thrown by a hook', new TypeError('hook'), 'final'],
  ])('%s is %s', (_, error, kind) => {
    expect(failureKind(error)).toBe(kind);
  });
});

/** A situation with defaults: a retryable failure on the main base, no backup, nothing else. */
const at = (over: Partial<Situation> = {}): Situation => ({
  kind: 'unavailable',
  retries: 0,
  maxRetries: 2,
  base: 'main',
  nextBase: 'main',
  nextHealthy: false,
  serverWaitMs: null,
  maxRetryAfterMs: 60_000,
  backoffMs: 500,
  budgetMs: undefined,
  nextModel: undefined,
  ...over,
});

describe('decide', () => {
  it.each<[string, Partial<Situation>, ReturnType<typeof decide>]>([
    ['retries after the backoff', {}, { action: 'retry', baseURL: 'main', delayMs: 500 }],
    ['waits what the server asked for', { serverWaitMs: 2_000 }, { action: 'retry', baseURL: 'main', delayMs: 2_000 }],
    ['moves to a healthy backup at once', { nextBase: 'backup', nextHealthy: true, serverWaitMs: 2_000 }, { action: 'retry', baseURL: 'backup', delayMs: 0 }],
    ['moves to a backup in cooldown after the pause', { nextBase: 'backup', nextHealthy: false }, { action: 'retry', baseURL: 'backup', delayMs: 500 }],
    ['gives up when retries are used', { retries: 2 }, { action: 'give-up', reason: 'retries' }],
    ['never retries a final failure', { kind: 'final' }, { action: 'give-up', reason: 'final' }],
    ['never retries a quota error', { kind: 'quota' }, { action: 'give-up', reason: 'final' }],
    ['never retries model_not_found', { kind: 'model-missing' }, { action: 'give-up', reason: 'final' }],
    ['refuses a wait beyond maxRetryAfterMs', { serverWaitMs: 61_000 }, { action: 'give-up', reason: 'retry-after' }],
    ['but a healthy other base may serve at once', { serverWaitMs: 61_000, nextBase: 'backup', nextHealthy: true }, { action: 'retry', baseURL: 'backup', delayMs: 0 }],
    ['refuses at once a server wait that would end past the budget (the server\'s error, retryAfterMs set)', { serverWaitMs: 5_000, budgetMs: 2_000 }, { action: 'give-up', reason: 'retry-after' }],
    ['gives up when the backoff does not fit the budget', { backoffMs: 500, budgetMs: 400 }, { action: 'give-up', reason: 'budget' }],
    ['retries when the pause fits the budget', { backoffMs: 500, budgetMs: 600 }, { action: 'retry', baseURL: 'main', delayMs: 500 }],
    ['falls back once the model is out of retries', { retries: 2, nextModel: 'b' }, { action: 'fallback', model: 'b' }],
    ['falls back at once on model_not_found', { kind: 'model-missing', nextModel: 'b' }, { action: 'fallback', model: 'b' }],
    ['falls back after a dropped connection', { kind: 'connection', retries: 2, nextModel: 'b' }, { action: 'fallback', model: 'b' }],
    ['falls back rather than wait beyond maxRetryAfterMs', { serverWaitMs: 61_000, nextModel: 'b' }, { action: 'fallback', model: 'b' }],
    ['falls back when the wait does not fit the budget but time is left', { serverWaitMs: 5_000, budgetMs: 2_000, nextModel: 'b' }, { action: 'fallback', model: 'b' }],
    ['does not fall back with no time left: out of budget', { retries: 2, budgetMs: 0, nextModel: 'b' }, { action: 'give-up', reason: 'budget' }],
    ['model_not_found at the deadline is out of budget too', { kind: 'model-missing', budgetMs: -5, nextModel: 'b' }, { action: 'give-up', reason: 'budget' }],
    ['never falls back on a final failure', { kind: 'final', nextModel: 'b' }, { action: 'give-up', reason: 'final' }],
    ['never falls back on a quota error', { kind: 'quota', nextModel: 'b' }, { action: 'give-up', reason: 'final' }],
    ['never falls back on 408/409 (another model would meet the same)', { kind: 'busy', retries: 2, nextModel: 'b' }, { action: 'give-up', reason: 'retries' }],
    ['follows a redirect to the other base', { redirectedTo: 'backup', kind: 'final' }, { action: 'redirect', baseURL: 'backup' }],
  ])('%s', (_, over, expected) => {
    expect(decide(at(over))).toEqual(expected);
  });

  const kinds: FailureKind[] = ['connection', 'unavailable', 'busy', 'model-missing', 'quota', 'final'];
  const situations = fc.record({
    kind: fc.constantFrom(...kinds),
    retries: fc.nat(5),
    maxRetries: fc.nat(5),
    base: fc.constantFrom('main', 'backup'),
    nextBase: fc.constantFrom('main', 'backup'),
    nextHealthy: fc.boolean(),
    serverWaitMs: fc.option(fc.nat(120_000), { nil: null }),
    maxRetryAfterMs: fc.nat(90_000),
    backoffMs: fc.nat(8_000),
    budgetMs: fc.option(fc.integer({ min: -1_000, max: 120_000 }), { nil: undefined }),
    nextModel: fc.option(fc.constantFrom('b', 'c'), { nil: undefined }),
  });

  it('holds its promises in every situation', () => {
    fc.assert(
      fc.property(situations, (s) => {
        const d = decide(s);
        if (d.action === 'retry') {
          // Only what another attempt may fix, only while retries are left.
          expect(isRetryable(s.kind)).toBe(true);
          expect(s.retries).toBeLessThan(s.maxRetries);
          expect(d.baseURL).toBe(s.nextBase);
          // Never an early retry against the server's wish, unless another healthy base serves at once.
          if (s.nextBase !== s.base && s.nextHealthy) expect(d.delayMs).toBe(0);
          else expect(d.delayMs).toBe(s.serverWaitMs ?? s.backoffMs);
          if (d.delayMs > 0 && s.serverWaitMs !== null) expect(s.serverWaitMs).toBeLessThanOrEqual(s.maxRetryAfterMs);
          // A pause that cannot finish inside the budget is never started.
          if (s.budgetMs !== undefined) expect(d.delayMs === 0 || d.delayMs < s.budgetMs).toBe(true);
        }
        if (d.action === 'fallback') {
          expect(['connection', 'unavailable', 'model-missing']).toContain(s.kind);
          expect(d.model).toBe(s.nextModel);
          expect(s.budgetMs === undefined || s.budgetMs > 0).toBe(true);
        }
        if (d.action === 'give-up' && d.reason === 'final') expect(isRetryable(s.kind)).toBe(false);
        if (d.action === 'give-up' && d.reason === 'budget') expect(s.budgetMs).toBeDefined();
        expect(d.action).not.toBe('redirect');
      }),
      { numRuns: 2_000 },
    );
  });
});
