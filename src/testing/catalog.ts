/** What a mock model can do; decides which endpoints accept it. */
export type MockModelKind = 'chat' | 'completion' | 'embedding' | 'image' | 'video' | 'audio';

/** A model in the mock gateway's catalogue. */
export interface MockModel {
  id: string;
  owned_by: string;
  kind: MockModelKind;
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
  { id: 'gpt-3.5-turbo-instruct', owned_by: 'openai', kind: 'completion' },
  { id: 'text-embedding-3-small', owned_by: 'openai', kind: 'embedding' },
  { id: 'text-embedding-3-large', owned_by: 'openai', kind: 'embedding' },
  { id: 'dall-e-3', owned_by: 'openai', kind: 'image' },
  { id: 'dall-e-2', owned_by: 'openai', kind: 'image' },
  { id: 'gpt-image-1', owned_by: 'openai', kind: 'image' },
  { id: 'whisper-1', owned_by: 'openai', kind: 'audio' },
  // The gateway's video models: `<vendor>_video2` (portrait) and `-landscape`; "vendor" is the
  // spec's neutral stand-in for the vendor word.
  { id: 'vendor_video2', owned_by: 'vendor', kind: 'video' },
  { id: 'vendor_video2-landscape', owned_by: 'vendor', kind: 'video' },
];

/** Fixed creation time so responses are reproducible. */
export const CATALOG_CREATED = 1_700_000_000;
