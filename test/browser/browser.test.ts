import { build } from 'esbuild';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMockGateway, type MockGateway, type Served } from '../../src/testing/index.js';
import { launchChromium, listenLocally } from './chromium.js';

// Real headless Chromium (Debian's package), driving a page bundled from the package's ESM
// build (npm run build first), against the mock gateway served on 127.0.0.1 with CORS.
const root = join(import.meta.dirname, '..', '..');

let browser: Browser;
let pageServer: Server;
let pageURL: string;
let mock: MockGateway;
let served: Served;

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [join(import.meta.dirname, 'page-app.ts')],
    bundle: true,
    format: 'esm',
    splitting: true,
    platform: 'browser',
    target: 'es2022',
    outdir: '/page',
    write: false,
    alias: { 'unified-gateway': join(root, 'dist', 'index.js') },
    logLevel: 'error',
  });
  const files = new Map(bundle.outputFiles.map((f) => [f.path.replace('/page', ''), f.contents]));
  const html = '<!doctype html><meta charset="utf-8"><title>unified-gateway</title><script type="module" src="/page-app.js"></script>';
  pageServer = createServer((req, res) => {
    const body = req.url === '/' ? html : files.get(req.url ?? '');
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': req.url === '/' ? 'text/html' : 'text/javascript' }).end(body);
  });
  pageURL = await listenLocally(pageServer);

  // Its delay fault may last past the test's timeout (see the abort check).
  mock = createMockGateway({ apiKey: 'test-key', stallTimeoutMs: 120_000 });
  served = await mock.listen();
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await new Promise((resolve) => pageServer?.close(resolve));
});

describe('in real Chromium', () => {
  it('guards construction, chats, streams, uploads an image edit and aborts', { timeout: 60_000 }, async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(pageURL);
    await page.waitForFunction(() => typeof (globalThis as { runChecks?: unknown }).runChecks === 'function', undefined, { timeout: 10_000 });
    // The models call is held for 2 minutes, past this test's timeout: only the abort ends it in time.
    mock.inject({ type: 'delay', ms: 120_000, path: 'models' });
    const result = (await page.evaluate((url) => (globalThis as unknown as { runChecks(u: string): Promise<unknown> }).runChecks(url), served.url)) as Record<string, any>;
    // Aborted once the gateway holds it (a bounded poll on the mock's own log), not 100 ms in.
    await vi.waitFor(() => expect(mock.requests.some((r) => r.method === 'GET' && r.path === 'models')).toBe(true), { timeout: 10_000, interval: 20 });
    const abort = await page.evaluate(() => (globalThis as unknown as { abortModels(): Promise<unknown> }).abortModels());

    expect(result.guard).toMatch(/^GatewayError: Refusing to run in a browser.*dangerouslyAllowBrowser/);
    expect(result.chat).toBe('You said: from the browser');
    expect(result.stream).toMatchObject({ text: 'You said: streamed in Chromium' });
    expect(result.stream.chunks).toBeGreaterThan(3);
    expect(result.edit).toMatch(/\/mock-files\/.*\.png$/);
    const upload = mock.requests.find((r) => r.path === 'images/edits');
    expect(upload?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload?.body).toMatchObject({ prompt: 'add a hat', image: { name: 'pixel.png', type: 'image/png', size: 70 } });
    expect(abort).toEqual({ name: 'APIUserAbortError' });
    expect(errors).toEqual([]);
  });
});
