import type { CounterAdd } from '../../src/core/store/store-rules.js';

/**
 * One `Store.add`: what the key held (`saved`, a value written with `set`; null for nothing),
 * the request, and what must come out: `added` and `total`. After an add the key reads back as
 * `total` (through `Number`); after a refused one it holds `saved`, byte for byte.
 * test/helpers/store-contract.ts runs every row against each store: memoryStore(), the
 * fail-open guard (over a store that works, one that is down, one without `add`), and
 * redisStore() over node-redis and ioredis, on one server and on a cluster.
 */
export interface AddRow {
  name: string;
  saved: string | null;
  add: CounterAdd;
  added: boolean;
  total: number;
}

const a = (amount: number, limit?: number): CounterAdd => ({ amount, limit, ttlMs: 60_000 });

/** Values a counter never holds: each counts as 0 (what a store gives back is untrusted). */
export const garbageValues = ['not a number', '', 'NaN', 'nan', 'inf', '-inf', 'Infinity', '1e999', '-1e999', '7 1000', '0x10', ' 5', '5 ', '12abc', '1.2.3', '{"n":5}', '+', '.', 'ünïcødé 🚀'];

export const addRows: AddRow[] = [
  { name: 'an absent key counts as 0', saved: null, add: a(3), added: true, total: 3 },
  { name: 'adds to what is there', saved: '4', add: a(3), added: true, total: 7 },
  { name: 'adds with no limit, however far', saved: '1e300', add: a(1e300), added: true, total: 2e300 },
  { name: 'a total of exactly the limit is added', saved: '7', add: a(3, 10), added: true, total: 10 },
  { name: 'a total past the limit changes nothing and answers the total as it stands', saved: '8', add: a(3, 10), added: false, total: 8 },
  { name: 'an add to an absent key past the limit writes nothing', saved: null, add: a(11, 10), added: false, total: 0 },
  { name: 'a limit below zero refuses any add', saved: null, add: a(1, -1), added: false, total: 0 },
  { name: 'a limit of 0 takes an add of 0', saved: null, add: a(0, 0), added: true, total: 0 },
  { name: 'an add of 0 past the limit (a lowered limit) is refused', saved: '12', add: a(0, 10), added: false, total: 12 },
  { name: 'a negative amount is added even past the limit (a reservation settled)', saved: '15', add: a(-5, 10), added: true, total: 10 },
  { name: 'a negative amount may take the total below zero', saved: null, add: a(-2, 10), added: true, total: -2 },
  { name: 'fractions add exactly', saved: '0.5', add: a(0.25), added: true, total: 0.75 },
  { name: 'a total that is not exact in binary reads back as the same number', saved: '0.1', add: a(0.2), added: true, total: 0.1 + 0.2 },
  { name: 'a negative stored total is untrusted: it counts as 0 (a hand edit would otherwise lift every limit)', saved: '-0.5', add: a(1), added: true, total: 1 },
  { name: 'a negative stored total counts as 0 against the limit too', saved: '-1e20', add: a(5, 3), added: false, total: 0 },
  { name: 'an exponent in the stored value', saved: '1e+21', add: a(0), added: true, total: 1e21 },
  { name: 'a signed stored value', saved: '+3', add: a(1), added: true, total: 4 },
  { name: 'a total past what a number holds is refused', saved: '1.7e308', add: a(1.7e308), added: false, total: 1.7e308 },
  ...garbageValues.map((saved) => ({ name: `a stored ${JSON.stringify(saved)} counts as 0`, saved, add: a(2), added: true, total: 2 })),
  { name: 'a stored value that is not a number counts as 0 against the limit too, and a refusal leaves it', saved: 'garbage', add: a(5, 3), added: false, total: 0 },
];
