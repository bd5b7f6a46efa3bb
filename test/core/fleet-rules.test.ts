import { describe, expect, it } from 'vitest';
import { chooseBase, CLOCK_SKEW_MS, EMPTY_VIEW, healthGate, isAvailable, lessonOf, pauseGate, quotaGate, readRecord, type FleetView } from '../../src/core/policy/fleet-rules.js';
import { estimateTokens, pauseLeftMs, pauseMs } from '../../src/core/policy/shared-rules.js';
import { MAX_SERVER_WAIT_MS } from '../../src/core/policy/waits.js';

// The fleet's decisions as tables: plain data in, a decision out (docs/fleet.md).

const MAIN = 'https://main.test/v1';
const BACKUP = 'https://backup.test/v1';
const NOW = 1_800_000_000_000;
const view = (over: Partial<FleetView> = {}): FleetView => ({ ...EMPTY_VIEW, ...over });
const pacing = { baseDelayMs: 500, maxDelayMs: 8_000 };

describe('gates: closed while the first record lives, then one probe', () => {
  it.each([
    ['nothing known', view(), 'open'],
    ['down', view({ down: { [MAIN]: true }, downWas: { [MAIN]: true } }), 'closed'],
    ['down expired, was-down left: a probe is due', view({ downWas: { [MAIN]: true } }), 'probe-due'],
    ['evidence alone keeps it open', view({ evidence: { [MAIN]: true } }), 'open'],
  ] as const)('health: %s', (_, v, gate) => expect(healthGate(v, MAIN)).toBe(gate));

  it.each([
    ['nothing known', view(), 'open'],
    ['paused', view({ pause: { [MAIN]: { at: NOW, ms: 5 } }, paused: { [MAIN]: { strikes: 1 } } }), 'closed'],
    ['pause expired, was-paused left', view({ paused: { [MAIN]: { strikes: 1 } } }), 'probe-due'],
  ] as const)('pause: %s', (_, v, gate) => expect(pauseGate(v, MAIN)).toBe(gate));

  it.each([
    ['no record', view(), 'open'],
    ['out', view({ quota: { at: NOW, message: 'out' }, quotaWas: true }), 'closed'],
    ['recheck due', view({ quotaWas: true }), 'probe-due'],
  ] as const)('quota: %s', (_, v, gate) => expect(quotaGate(v)).toBe(gate));
});

describe('chooseBase', () => {
  it.each([
    ['main healthy', view(), BACKUP, { base: MAIN, probe: false }],
    ['main down, no backup: main anyway', view({ down: { [MAIN]: true } }), undefined, { base: MAIN, probe: false }],
    ['main down: the backup', view({ down: { [MAIN]: true } }), BACKUP, { base: BACKUP, probe: false }],
    ['main probe due: a probe of main (the caller takes the lock)', view({ downWas: { [MAIN]: true } }), BACKUP, { base: MAIN, probe: true }],
    ['only the backup down: main', view({ down: { [BACKUP]: true } }), BACKUP, { base: MAIN, probe: false }],
  ])('%s', (_, v, backup, choice) => {
    expect(chooseBase(v, { main: MAIN, backup })).toEqual(choice);
  });

  it('a base is available unless it is down (a probe may be due)', () => {
    expect([isAvailable(view(), MAIN), isAvailable(view({ down: { [MAIN]: true } }), MAIN), isAvailable(view({ downWas: { [MAIN]: true } }), MAIN)]).toEqual([true, false, true]);
  });
});

describe('lessonOf: what a failure teaches', () => {
  it.each([
    ['a quota error', { kind: 'quota', status: 429, quotaMessage: 'no credit', retryAfterMs: null }, { kind: 'quota', message: 'no credit' }],
    ['a 429 with Retry-After', { kind: 'unavailable', status: 429, quotaMessage: undefined, retryAfterMs: 5000 }, { kind: 'pause', retryAfterMs: 5000 }],
    ['a 429 without Retry-After: still a pause (the common rate limit)', { kind: 'unavailable', status: 429, quotaMessage: undefined, retryAfterMs: null }, { kind: 'pause', retryAfterMs: null }],
    ['no answer at all: evidence against the base', { kind: 'connection', status: null, quotaMessage: undefined, retryAfterMs: null }, { kind: 'evidence' }],
    ['a 500: a model-5xx (counted once per model)', { kind: 'unavailable', status: 500, quotaMessage: undefined, retryAfterMs: null }, { kind: 'model-5xx' }],
    ['a 400: nothing', { kind: 'final', status: 400, quotaMessage: undefined, retryAfterMs: null }, undefined],
    ['a missing model: nothing (the model is)', { kind: 'model-missing', status: 503, quotaMessage: undefined, retryAfterMs: null }, undefined],
  ] as const)('%s', (_, failure, lesson) => expect(lessonOf(failure)).toEqual(lesson));
});

describe('pauseMs', () => {
  it.each([
    ['the server wait as it is', 5_000, 0, 5_000],
    ['a year is an hour', 365 * 86_400_000, 0, MAX_SERVER_WAIT_MS],
    ['Infinity is an hour', Number.POSITIVE_INFINITY, 0, MAX_SERVER_WAIT_MS],
    ['no Retry-After, first 429: the base delay', null, 1, 500],
    ['third in a row: doubled twice', null, 3, 2_000],
    ['many in a row: capped', null, 40, 8_000],
  ] as const)('%s', (_, retryAfter, strikes, ms) => expect(pauseMs(retryAfter, strikes, pacing)).toBe(ms));
});

describe('readRecord: store data is untrusted', () => {
  const text = (fields: Record<string, unknown>, at = NOW, ttl = 5_000) => JSON.stringify({ ...fields, at, ttl });
  it.each([
    ['a flag', 'down', text({}), true],
    ['a flag of another shape is ignored', 'down', '1', undefined],
    ['a pause', 'pause', text({}, NOW, 5_000), { at: NOW, ms: 5_000 }],
    ['a pause of ten hours is an hour long at most', 'pause', text({}, NOW, 36_000_000), { at: NOW, ms: MAX_SERVER_WAIT_MS }],
    ['a record claiming a ttl of a year (no writer writes one) is ignored', 'pause', text({}, NOW, 365 * 86_400_000), undefined],
    ['a pause of Infinity (not JSON)', 'pause', '{"at":1,"ttl":Infinity}', undefined],
    ['a record without its ttl', 'pause', JSON.stringify({ at: NOW }), undefined],
    ['a record that outlived its ttl and the clock skew allowed (a store that never expired it)', 'pause', text({}, NOW - 5_000 - CLOCK_SKEW_MS - 1, 5_000), undefined],
    ['a record within its ttl and the skew', 'down', text({}, NOW - 5_000 - CLOCK_SKEW_MS + 1, 5_000), true],
    ['a pause that is a string', 'pause', '"soon"', undefined],
    ['null', 'pause', 'null', undefined],
    ['{}', 'quota', '{}', undefined],
    ['a quota record', 'quota', text({ message: 'out' }), { at: NOW, message: 'out' }],
    ['a quota from 1970 is ignored', 'quota', text({ message: 'out' }, 0), undefined],
    ['a quota 200 days old, never expired, is ignored', 'quota', text({ message: 'out' }, NOW - 200 * 86_400_000, 30_000), undefined],
    ['a quota message is bounded', 'quota', text({ message: 'x'.repeat(10_000) }), { at: NOW, message: 'x'.repeat(300) }],
    ['strikes', 'was-paused', text({ strikes: 2 }), { strikes: 2 }],
    ['negative strikes', 'was-paused', text({ strikes: -1 }), undefined],
    ['not JSON', 'quota', '{', undefined],
  ] as const)('%s', (_, kind, value, record) => expect(readRecord(kind, value, NOW)).toEqual(record));

  it('pauseLeftMs: what its writer said is left, at least 50 ms, never more than the pause itself (a writer whose clock runs ahead)', () => {
    expect(pauseLeftMs(view({ pause: { [MAIN]: { at: NOW - 1_000, ms: 3_000 } } }), MAIN, NOW)).toBe(2_000);
    expect(pauseLeftMs(view({ pause: { [MAIN]: { at: NOW - 10_000, ms: 3_000 } } }), MAIN, NOW)).toBe(50);
    expect(pauseLeftMs(view({ pause: { [MAIN]: { at: NOW + 120_000, ms: 1_000 } } }), MAIN, NOW)).toBe(1_000);
  });
});

describe('estimateTokens', () => {
  it('is a token per four characters sent plus the output limit', () => {
    expect(estimateTokens({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(40) }], max_tokens: 100 })).toBe(Math.ceil(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(40) }] }).length / 4) + 100);
    expect(estimateTokens({ model: 'm', max_tokens: Number.POSITIVE_INFINITY })).toBe(Math.ceil(JSON.stringify({ model: 'm' }).length / 4));
  });
});
