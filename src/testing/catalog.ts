import { strictFamilies, type MockFamilyName } from './families.js';

/** What a mock model can do; decides which endpoints accept it. */
export type MockModelKind = 'chat' | 'completion' | 'embedding' | 'image' | 'video' | 'audio';

/**
 * How a mock chat model reasons: it answers with reasoning (deterministic, or a scripted
 * reply's `reasoning`), and checks the reasoning sent back to it as its vendor does, so a
 * test can reproduce the vendors' 400s (docs/mock-gateway.md#reasoning-models).
 */
export interface MockReasoning {
  /** The field its reasoning is written in, in messages and stream deltas. @default 'reasoning_content' */
  field?: 'reasoning_content' | 'reasoning' | undefined;
  /**
   * What it does with reasoning in the messages it is sent. `'ignored'`: anything goes.
   * `'required-on-tool-calls'`: an assistant message with `tool_calls` that lacks the field is
   * a 400, DeepSeek's thinking mode word for word. `'rejected'`: any message that carries the
   * field is a 400, as DeepSeek-R1 answered. @default 'ignored'
   */
  history?: 'ignored' | 'required-on-tool-calls' | 'rejected' | undefined;
}

/** A model in the mock gateway's catalogue. */
export interface MockModel {
  id: string;
  owned_by: string;
  kind: MockModelKind;
  /** A chat model that reasons: see {@link MockReasoning}. */
  reasoning?: MockReasoning | undefined;
  /**
   * A chat model of a family of the strict catalogue: it answers, streams and refuses as that
   * vendor does (docs/mock-gateway.md#the-strict-catalogue). Not together with `reasoning`.
   */
  family?: MockFamilyName | undefined;
}

/**
 * The default catalogue: common ids from several vendors, so examples written for the real
 * gateway run unchanged against the mock.
 */
export const defaultModels: MockModel[] = [
  { id: 'gpt-4o-mini', owned_by: 'openai', kind: 'chat' },
  { id: 'gpt-4o', owned_by: 'openai', kind: 'chat' },
  { id: 'claude-3-5-sonnet-20241022', owned_by: 'anthropic', kind: 'chat' },
  { id: 'gemini-1.5-pro', owned_by: 'google', kind: 'chat' },
  { id: 'deepseek-chat', owned_by: 'deepseek', kind: 'chat' },
  // DeepSeek's thinking mode: its reasoning must come back on turns that called a tool.
  { id: 'deepseek-reasoner', owned_by: 'deepseek', kind: 'chat', reasoning: { history: 'required-on-tool-calls' } },
  // DeepSeek-R1: reasoning sent back is refused.
  { id: 'deepseek-r1', owned_by: 'deepseek', kind: 'chat', reasoning: { history: 'rejected' } },
  { id: 'gpt-3.5-turbo-instruct', owned_by: 'openai', kind: 'completion' },
  { id: 'text-embedding-3-small', owned_by: 'openai', kind: 'embedding' },
  { id: 'text-embedding-3-large', owned_by: 'openai', kind: 'embedding' },
  { id: 'dall-e-3', owned_by: 'openai', kind: 'image' },
  { id: 'dall-e-2', owned_by: 'openai', kind: 'image' },
  { id: 'gpt-image-1', owned_by: 'openai', kind: 'image' },
  { id: 'whisper-1', owned_by: 'openai', kind: 'audio' },
  // Billed otherwise than by ratios (src/testing/accounting.ts): a flat price per request
  // (quota_type 1), and a tiered expression (billing_mode 'tiered_expr').
  { id: 'per-request-chat', owned_by: 'mock', kind: 'chat' },
  { id: 'tiered-chat', owned_by: 'mock', kind: 'chat' },
  // The gateway's video models: `<vendor>_video2` (portrait) and `-landscape`; "vendor" is the
  // spec's neutral stand-in for the vendor word.
  { id: 'vendor_video2', owned_by: 'vendor', kind: 'video' },
  { id: 'vendor_video2-landscape', owned_by: 'vendor', kind: 'video' },
];

/** Fixed creation time so responses are reproducible. */
export const CATALOG_CREATED = 1_700_000_000;

/**
 * Every family's ids as catalogue entries (chat models with `family` set), to add to a
 * catalogue of your own: `models: [...defaultModels, ...strictModels]`.
 */
export const strictModels: MockModel[] = strictFamilies.flatMap((f) => f.ids.map((id): MockModel => ({ id, owned_by: f.ownedBy, kind: 'chat', family: f.name })));

/** `catalog: 'strict'`: the strict families' ids, then the default catalogue's other ids. */
export function strictCatalog(): MockModel[] {
  const ids = new Set(strictModels.map((m) => m.id));
  return [...strictModels, ...defaultModels.filter((m) => !ids.has(m.id))];
}
