import { ValidationError } from '../core/errors.js';
import { isRecord } from '../internal/is-record.js';
import { toCassette } from './cassette.js';
import { hasFileSystem } from './cassette-files.js';
import type { MockModelKind } from './catalog.js';
import { strictFamilies } from './families.js';
import type { MockFault } from './faults.js';

// The checks of createMockGateway's options, written out like the client's (core/check.ts):
// a mistake is a ValidationError naming the field when the mock is made, not a mock that
// quietly answers otherwise than the test meant.

const OPTION_NAMES: readonly string[] = ['apiKey', 'models', 'catalog', 'faults', 'frameDelayMs', 'stallTimeoutMs', 'videoStepMs', 'script', 'cacheHints', 'cassettes', 'accounting', 'quota', 'logReadsPerSecond'];
const MODEL_KINDS: readonly MockModelKind[] = ['chat', 'completion', 'embedding', 'image', 'video', 'audio'];
const FAULT_TYPES: readonly MockFault['type'][] = ['rate_limit', 'insufficient_quota', 'server_error', 'unavailable', 'status', 'disconnect', 'delay', 'stream_cut', 'stall', 'slow_stream', 'no_done'];

/** Checks every option of `createMockGateway`; inline cassettes are checked whole, a directory when it is first read. */
export function checkMockOptions(options: unknown): void {
  if (!isRecord(options)) {
    throw new ValidationError('options', `must be an object such as { apiKey: 'test-key' } (got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options})`);
  }
  const unknown = Object.keys(options).find((key) => !OPTION_NAMES.includes(key));
  if (unknown !== undefined) throw new ValidationError(unknown, `is not a createMockGateway option: use ${OPTION_NAMES.join(', ')}`);
  const { apiKey, models, catalog, faults, script, cacheHints, cassettes } = options;
  if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey === '')) throw new ValidationError('apiKey', "must be a non-empty string, the key the mock accepts (e.g. 'test-key')");
  if (models !== undefined) {
    if (!Array.isArray(models)) throw new ValidationError('models', "must be an array of models such as { id: 'gpt-4o-mini', owned_by: 'openai', kind: 'chat' }");
    for (const [i, model] of models.entries()) {
      const ok = isRecord(model) && typeof model.id === 'string' && typeof model.owned_by === 'string' && MODEL_KINDS.includes(model.kind as MockModelKind);
      if (!ok) throw new ValidationError(`models[${i}]`, `must be { id, owned_by, kind } (any id, even one a real gateway would not list: tests serve odd catalogues) with kind one of ${MODEL_KINDS.join(', ')}`);
      if (model.family !== undefined) {
        const names = strictFamilies.map((f) => f.name);
        if (!names.includes(model.family as (typeof names)[number])) throw new ValidationError(`models[${i}].family`, `must be one of ${names.join(', ')}`);
        if (model.kind !== 'chat') throw new ValidationError(`models[${i}].family`, "is for chat models (kind: 'chat')");
        if (model.reasoning !== undefined) throw new ValidationError(`models[${i}].reasoning`, 'cannot be given with family: the family says how the model reasons');
      }
    }
  }
  if (catalog !== undefined) {
    if (catalog !== 'default' && catalog !== 'strict') throw new ValidationError('catalog', "must be 'default' or 'strict'");
    if (models !== undefined) throw new ValidationError('catalog', "is the catalogue used when models is not given: with models, add the strict ids yourself (models: [...defaultModels, ...strictModels])");
  }
  if (faults !== undefined) {
    if (!Array.isArray(faults)) throw new ValidationError('faults', "must be an array of faults such as { type: 'rate_limit' }");
    for (const [i, fault] of faults.entries()) {
      if (!isRecord(fault) || !FAULT_TYPES.includes(fault.type as MockFault['type'])) throw new ValidationError(`faults[${i}].type`, `must be one of ${FAULT_TYPES.join(', ')}`);
    }
  }
  for (const name of ['frameDelayMs', 'stallTimeoutMs', 'videoStepMs'] as const) {
    const value = options[name];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value >= 0)) throw new ValidationError(name, 'must be a number of ms, 0 or more');
  }
  if (options.accounting !== undefined && typeof options.accounting !== 'boolean') throw new ValidationError('accounting', "must be true or false (false: new-api's /api/ and /dashboard/ accounting endpoints answer 404)");
  const quota = options.quota;
  if (quota !== undefined && !(typeof quota === 'number' && Number.isSafeInteger(quota) && quota >= 0)) throw new ValidationError('quota', 'must be a whole number of quota units, 0 or more (500,000 a USD), e.g. 5_000_000');
  const reads = options.logReadsPerSecond;
  if (reads !== undefined && !(typeof reads === 'number' && Number.isFinite(reads) && reads >= 0)) throw new ValidationError('logReadsPerSecond', 'must be a number of reads a second, 0 or more (0: no limit)');
  if (script !== undefined && !Array.isArray(script)) throw new ValidationError('script', "must be an array of replies such as { content: 'Hi' }");
  if (cacheHints !== undefined && cacheHints !== 'honor' && cacheHints !== 'drop') throw new ValidationError('cacheHints', "must be 'honor' or 'drop'");
  if (cassettes !== undefined) {
    if (typeof cassettes === 'string') {
      if (cassettes === '') throw new ValidationError('cassettes', 'must be a directory path, or the cassettes inline');
      if (!hasFileSystem) {
        throw new ValidationError('cassettes', 'as a directory needs a file system (Node, Deno or Bun). In a browser or an edge worker, import the cassettes and pass them inline: createMockGateway({ cassettes: [...] })');
      }
    } else if (Array.isArray(cassettes)) {
      for (const [i, cassette] of cassettes.entries()) toCassette(cassette, `cassettes[${i}]`);
    } else {
      throw new ValidationError('cassettes', 'must be a directory of cassette files (a path) or an array of cassettes');
    }
  }
}
