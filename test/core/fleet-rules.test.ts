import { describe, expect, it } from 'vitest';
import { chooseBase, estimateTokens, isAvailable, pauseLeftMs, quotaDecision, usedTokens, type FleetView } from '../../src/core/policy/fleet-rules.js';

// The fleet's decisions as tables: plain data in, a decision out (docs/fleet.md).

const MAIN = 'https://main.test/v1';
const BACKUP = 'https://backup.test/v1';
const NOW = 1_000_000;
const view = (over: Partial<FleetView> = {}): FleetView => ({ down: {}, pause: {}, quota: undefined, ...over });

describe('chooseBase', () => {
  it.each([
    ['main healthy', view(), BACKUP, { base: MAIN, probe: false }],
    ['main down, no backup: main anyway', view({ down: { [MAIN]: { until: NOW + 5 } } }), undefined, { base: MAIN, probe: false }],
    ['main down within its cooldown: the backup, main skipped', view({ down: { [MAIN]: { until: NOW + 5 } } }), BACKUP, { base: BACKUP, probe: false, skipped: MAIN }],
    ['main down, cooldown over: a probe of main (the caller takes the lock)', view({ down: { [MAIN]: { until: NOW } } }), BACKUP, { base: MAIN, probe: true }],
    ['only the backup down: main', view({ down: { [BACKUP]: { until: NOW + 5 } } }), BACKUP, { base: MAIN, probe: false }],
  ])('%s', (_, v, backup, choice) => {
    expect(chooseBase(v, { main: MAIN, backup }, NOW)).toEqual(choice);
  });
});

describe('isAvailable', () => {
  it.each([
    [view(), true],
    [view({ down: { [MAIN]: { until: NOW + 1 } } }), false],
    [view({ down: { [MAIN]: { until: NOW } } }), true],
  ])('%#', (v, available) => expect(isAvailable(v, MAIN, NOW)).toBe(available));
});

describe('quotaDecision', () => {
  it.each([
    ['no record: send', view(), 'send'],
    ['exhausted, recheck not due: refuse', view({ quota: { at: NOW - 10, recheckAt: NOW + 1, message: 'x' } }), 'refuse'],
    ['exhausted, recheck due: one instance probes', view({ quota: { at: NOW - 10, recheckAt: NOW, message: 'x' } }), 'probe'],
  ] as const)('%s', (_, v, decision) => expect(quotaDecision(v, NOW)).toBe(decision));
});

describe('pauseLeftMs', () => {
  it.each([
    [view(), 0],
    [view({ pause: { [MAIN]: { until: NOW + 2_500 } } }), 2_500],
    [view({ pause: { [MAIN]: { until: NOW - 1 } } }), 0],
    [view({ pause: { [BACKUP]: { until: NOW + 2_500 } } }), 0],
  ])('%#', (v, left) => expect(pauseLeftMs(v, MAIN, NOW)).toBe(left));
});

describe('estimateTokens and usedTokens', () => {
  it.each<[string, unknown, number]>([
    ['about four characters a token of what is sent', { model: 'm', messages: [{ role: 'user', content: 'x'.repeat(400) }] }, 114],
    ['plus the most the reply may be', { model: 'm', messages: [], max_tokens: 500 }, 7 + 500],
    ['responses name it max_output_tokens', { model: 'm', input: 'hi', max_output_tokens: 64 }, 7 + 64],
    ['no body', undefined, 0],
  ])('%s', (_, body, tokens) => expect(estimateTokens(body)).toBe(tokens));

  it.each([
    [{ usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }, 15],
    [{ usage: { input_tokens: 10, output_tokens: 5 } }, 15],
    [{ usage: { prompt_tokens: 8, total_tokens: 8 } }, 8],
    [{ data: [] }, undefined],
    [null, undefined],
  ])('%j → %s', (reply, used) => expect(usedTokens(reply)).toBe(used));
});
