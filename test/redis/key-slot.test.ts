import { describe, expect, it } from 'vitest';
import { keySlot } from '../../src/redis/key-slot.js';

// Slots as redis-server 7.0 answered CLUSTER KEYSLOT for each key; test/redis/redis-cluster.test.ts
// compares more keys with a running cluster.
describe('keySlot', () => {
  it.each([
    ['123456789', 12739], // CRC16/XMODEM's check value 0x31C3, the spec's own example
    ['foo', 12182],
    ['bar', 5061],
    ['', 0],
    ['é🚀', 7973], // UTF-8 bytes, not UTF-16 code units
    ['{user1000}.following', 3443],
    ['{user1000}.followers', 3443],
    ['foo{}{bar}', 8363], // an empty tag is no tag: the whole key
    ['foo{{bar}}zap', 4015], // the tag is `{bar`, up to the first `}`
    ['{bar', 4015], // no `}`: the whole key
    ['foo{bar}{zap}', 5061], // the first tag only: `bar`
    ['ug:{a1b2c3}:down:x', 15153],
    ['a1b2c3', 15153],
  ])('%j is in slot %i', (key, slot) => {
    expect(keySlot(key)).toBe(slot);
  });
});
