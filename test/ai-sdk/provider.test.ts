import { embed, generateText, streamText } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { createUnifiedGateway, type UnifiedGatewayProvider, type UnifiedGatewaySettings } from '../../src/ai-sdk/index.js';
import { Gateway, GatewayError, ValidationError } from '../../src/index.js';
import { createMockGateway } from '../../src/testing/index.js';

/** Settings as a module evaluated without its secrets (a `next build` in CI or Docker) makes them. */
const unset = () => ({ apiKey: process.env['MY_GATEWAY_KEY'], baseURL: process.env['MY_GATEWAY_URL'] });

function withoutSecrets() {
  vi.stubEnv('GATEWAY_API_KEY', '');
  vi.stubEnv('GATEWAY_BASE_URL', '');
}

describe('createUnifiedGateway', () => {
  it('can be created, and models taken from it, without an API key or base URL', () => {
    withoutSecrets();
    const gw = createUnifiedGateway(unset());
    expect(() => [gw('gpt-4o-mini'), gw.embeddingModel('e'), gw.imageModel('i'), gw.transcriptionModel('t'), gw.videoModel('v')]).not.toThrow();
  });

  it('refuses the first model call without configuration, with the client’s message', async () => {
    withoutSecrets();
    const gw = createUnifiedGateway(unset());
    const error = await generateText({ model: gw('gpt-4o-mini'), prompt: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as Error).message).toMatch(/Missing API key\. Pass it using the 'apiKey' option .* GATEWAY_API_KEY/);
    const errors: unknown[] = [];
    await streamText({ model: gw('gpt-4o-mini'), prompt: 'x', onError: ({ error }) => void errors.push(error) }).consumeStream();
    expect((errors[0] as Error).message).toMatch(/Missing API key/);
    await expect(embed({ model: gw.embeddingModel('text-embedding-3-small'), value: 'x' })).rejects.toThrow(/Missing API key/);
    expect(() => gw.client).toThrow(/Missing API key/);
  });

  it('reads its configuration at the first call, then keeps one client', async () => {
    withoutSecrets();
    const gw = createUnifiedGateway({});
    const served = await createMockGateway({ apiKey: 'k' }).listen();
    try {
      vi.stubEnv('GATEWAY_API_KEY', 'k');
      vi.stubEnv('GATEWAY_BASE_URL', served.url);
      const { text } = await generateText({ model: gw('gpt-4o-mini'), prompt: 'configured late' });
      expect(text).toBe('You said: configured late');
      expect(gw.client).toBe(gw.client);
      expect(gw.client.baseURL).toBe(served.url);
    } finally {
      await served.close();
    }
  });

  it.each([
    ['null', null, 'settings'],
    ['a string', 'x', 'settings'],
    ['a number', 3, 'settings'],
    ['an array', [], 'settings'],
    ['a client that is not a Gateway', { client: {} }, 'client'],
    ['a null client', { client: null }, 'client'],
  ])('refuses %s with a ValidationError naming the option', (_, settings, field) => {
    const error = (() => {
      try {
        createUnifiedGateway(settings as unknown as UnifiedGatewaySettings);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field });
  });

  it('refuses an option of the wrong shape at once when the secrets are there', () => {
    expect(() => createUnifiedGateway({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', maxRetries: -1 })).toThrow(ValidationError);
  });

  it.each([
    ['gw(42)', (gw: UnifiedGatewayProvider) => gw(42 as never)],
    ['gw(undefined)', (gw: UnifiedGatewayProvider) => gw(undefined as never)],
    ["gw('')", (gw: UnifiedGatewayProvider) => gw('')],
    ['languageModel(null)', (gw: UnifiedGatewayProvider) => gw.languageModel(null as never)],
    ['embeddingModel(42)', (gw: UnifiedGatewayProvider) => gw.embeddingModel(42 as never)],
    ['imageModel({})', (gw: UnifiedGatewayProvider) => gw.imageModel({} as never)],
    ["transcriptionModel(' ')", (gw: UnifiedGatewayProvider) => gw.transcriptionModel(' ')],
    ['videoModel(undefined)', (gw: UnifiedGatewayProvider) => gw.videoModel(undefined as never)],
  ])('refuses %s at once with a ValidationError naming the model id, never a TypeError at the call', (_, make) => {
    const gw = createUnifiedGateway({ client: new Gateway({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1' }) });
    let thrown: unknown;
    try {
      make(gw);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect(thrown).toMatchObject({ field: 'modelId' });
    expect((thrown as Error).message).toMatch(/must be a non-empty string.*gw\('gpt-4o-mini'\)/);
  });

  it('takes a Gateway as its client', () => {
    const client = new Gateway({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1' });
    expect(createUnifiedGateway({ client }).client).toBe(client);
  });
});
