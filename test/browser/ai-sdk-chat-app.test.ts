import type { Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatServer } from '../../examples/ai-sdk-chat-app/server.js';
import { createUnifiedGateway } from 'unified-gateway/ai-sdk';
import { createMockGateway, type MockGateway, type Served } from 'unified-gateway/testing';
import { launchChromium, listenLocally } from './chromium.js';

// The example chat app (examples/ai-sdk-chat-app/) in real headless Chromium: its Node route
// answers with the AI SDK's UI message stream over the built unified-gateway/ai-sdk, against
// the mock gateway on 127.0.0.1; the page chats through it with the AI SDK's own client.

let browser: Browser;
let app: Server;
let appURL: string;
let mock: MockGateway;
let served: Served;

beforeAll(async () => {
  mock = createMockGateway({ apiKey: 'test-key', frameDelayMs: 5 });
  served = await mock.listen();
  app = await createChatServer(createUnifiedGateway({ apiKey: 'test-key', baseURL: served.url }));
  appURL = await listenLocally(app);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  app?.closeAllConnections();
  await new Promise((resolve) => app?.close(resolve));
});

describe('the AI SDK example chat app in real Chromium', () => {
  it('chats through the UI message stream, two turns with the history sent back', { timeout: 60_000 }, async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(appURL);
    for (const [i, text] of ['hello from Chromium', 'and again'].entries()) {
      await page.fill('#input', text);
      await page.click('button');
      await page.waitForSelector(`#log p.assistant:nth-of-type(${2 * (i + 1)})[data-state="done"]`, { timeout: 20_000 });
    }
    const replies = await page.$$eval('#log p.assistant', (ps) => ps.map((p) => p.textContent));
    expect(replies).toEqual(['You said: hello from Chromium', 'You said: and again']);
    const chats = mock.requests.filter((r) => r.path === 'chat/completions');
    expect(chats).toHaveLength(2);
    expect(chats[1]?.body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'system' }, { role: 'user', content: 'hello from Chromium' }, { role: 'assistant', content: 'You said: hello from Chromium' }, { role: 'user', content: 'and again' }],
    });
    expect(errors).toEqual([]);
  });
});
