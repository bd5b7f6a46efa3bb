import { afterEach, describe, expect, it, vi } from 'vitest';
import Default, { Gateway, GatewayError, ValidationError } from '../../src/index.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('new Gateway', () => {
  it('reads apiKey, baseURL and backupBaseURL from the environment', () => {
    vi.stubEnv('GATEWAY_API_KEY', 'env-key');
    vi.stubEnv('GATEWAY_BASE_URL', 'https://main.example/v1/');
    vi.stubEnv('GATEWAY_BACKUP_BASE_URL', 'https://backup.example/v1');
    const c = new Gateway();
    expect(c.baseURL).toBe('https://main.example/v1');
    expect(c.backupBaseURL).toBe('https://backup.example/v1');
    expect(c.maxRetries).toBe(2);
    expect(c.timeout).toBe(600_000);
  });

  it('prefers options over the environment', () => {
    vi.stubEnv('GATEWAY_BASE_URL', 'https://env.example/v1');
    const c = new Gateway({ apiKey: 'k', baseURL: 'https://opt.example/v1', maxRetries: 0, timeout: 5 });
    expect([c.baseURL, c.maxRetries, c.timeout]).toEqual(['https://opt.example/v1', 0, 5]);
  });

  it('normalises the scheme and host of a base URL to lower case (as new URL() does), keeping the path as given', () => {
    const spelt = new Gateway({ apiKey: 'k', baseURL: 'HTTP://Gateway.Example/v1', backupBaseURL: 'https://Backup.Example:443/V1/' });
    expect(spelt.baseURL).toBe('http://gateway.example/v1');
    expect(spelt.baseURL).toBe(new Gateway({ apiKey: 'k', baseURL: 'http://gateway.example/v1' }).baseURL);
    expect(spelt.backupBaseURL).toBe('https://backup.example/V1');
  });

  it('recognises its backup base however its host was spelt: a redirect there is a failover, not a foreign redirect', async () => {
    const sent: string[] = [];
    const fetch = async (input: string | URL | Request) => {
      const url = String(input instanceof Request ? input.url : input);
      sent.push(url);
      // Location resolves, as fetch resolves it, to the lower-case host.
      if (url.startsWith('http://main.test/')) return new Response(null, { status: 307, headers: { location: 'http://backup.test/v1/models' } });
      return Response.json({ object: 'list', data: [] });
    };
    const c = new Gateway({ apiKey: 'k', baseURL: 'http://main.test/v1', backupBaseURL: 'HTTP://Backup.Test/v1', fetch, maxRetries: 0 });
    expect(await c.models.list()).toMatchObject({ data: [] });
    expect(sent).toEqual(['http://main.test/v1/models', 'http://backup.test/v1/models']);
  });

  it('names the option and the variable when the key is missing', () => {
    vi.stubEnv('GATEWAY_API_KEY', '');
    expect(() => new Gateway({ baseURL: 'https://x/v1' })).toThrow(GatewayError);
    expect(() => new Gateway({ baseURL: 'https://x/v1' })).toThrow(/'apiKey'.*GATEWAY_API_KEY/);
  });

  it('names the option and the variable when the base URL is missing', () => {
    vi.stubEnv('GATEWAY_BASE_URL', '');
    expect(() => new Gateway({ apiKey: 'k' })).toThrow(/'baseURL'.*GATEWAY_BASE_URL/);
  });

  it('accepts any key format, suffixes included, and sends it as given', async () => {
    const sent: Array<string | null> = [];
    const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
      sent.push(new Headers(init?.headers).get('authorization'));
      return Response.json({ object: 'list', data: [] });
    };
    await new Gateway({ apiKey: 'sk-abc:vendor-x.pool-2', baseURL: 'https://x/v1', fetch }).models.list();
    expect(sent).toEqual(['Bearer sk-abc:vendor-x.pool-2']);
  });

  it.each([
    [{ baseURL: 'not a url' }, 'baseURL'],
    [{ baseURL: 'ftp://x/v1' }, 'baseURL'],
    [{ maxRetries: -1 }, 'maxRetries'],
    [{ maxRetries: 1.5 }, 'maxRetries'],
    [{ timeout: 0 }, 'timeout'],
    [{ idleTimeout: Number.NaN }, 'idleTimeout'],
  ])('rejects bad option %o', (opts, field) => {
    expect(() => new Gateway({ apiKey: 'k', baseURL: 'https://x/v1', ...opts })).toThrow(expect.objectContaining({ field }) as Error);
    expect(() => new Gateway({ apiKey: 'k', baseURL: 'https://x/v1', ...opts })).toThrow(ValidationError);
  });

  it('refuses to run in a browser unless dangerouslyAllowBrowser is set', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    const versions = process.versions;
    Object.defineProperty(process, 'versions', { value: { ...versions, node: undefined }, configurable: true });
    try {
      expect(() => new Gateway({ apiKey: 'k', baseURL: 'https://x/v1' })).toThrow(/dangerouslyAllowBrowser/);
      expect(() => new Gateway({ apiKey: 'k', baseURL: 'https://x/v1', dangerouslyAllowBrowser: true })).not.toThrow();
    } finally {
      Object.defineProperty(process, 'versions', { value: versions, configurable: true });
    }
  });

  it('is also the default export', () => {
    expect(Default).toBe(Gateway);
  });
});

describe('what a new user hits', () => {
  it('trims whitespace around baseURL, backupBaseURL and apiKey (a pasted or .env value)', () => {
    const c = new Gateway({ apiKey: ' k \n', baseURL: '  https://main.example/v1/ \n', backupBaseURL: '\thttps://backup.example/v1 ' });
    expect([c.baseURL, c.backupBaseURL]).toEqual(['https://main.example/v1', 'https://backup.example/v1']);
  });

  it('shows the API key through no inspection of a client, a resource or a stream', async () => {
    const { inspect } = await import('node:util');
    const key = 'sk-inspect-me-0123456789';
    const fetch = async () => new Response('data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[]}\n\ndata: [DONE]\n\n', { headers: { 'content-type': 'text/event-stream' } });
    const c = new Gateway({ apiKey: key, baseURL: 'https://x.example/v1', fetch });
    const stream = await c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true });
    for (const target of [c, c.chat.completions, c.videos, c.models, stream]) {
      for (const options of [{}, { showHidden: true, getters: true, depth: 8 }, { showHidden: true, depth: Infinity }]) {
        expect(inspect(target, options)).not.toContain(key);
      }
      expect(JSON.stringify(target)).not.toContain(key ?? '');
    }
    expect(Object.getOwnPropertyNames(Object.getPrototypeOf(c))).not.toContain('_config');
  });
});
