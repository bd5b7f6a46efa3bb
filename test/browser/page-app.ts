// Bundled for the browser by test/browser/browser.test.ts from the package's ESM build.
import { Gateway } from 'unified-gateway';

type Result = Record<string, unknown>;

async function runChecks(baseURL: string): Promise<Result> {
  const out: Result = {};

  try {
    new Gateway({ apiKey: 'test-key', baseURL });
    out.guard = 'constructed';
  } catch (err) {
    out.guard = `${(err as Error).name}: ${(err as Error).message}`;
  }

  const client = new Gateway({ apiKey: 'test-key', baseURL, dangerouslyAllowBrowser: true });

  const chat = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'from the browser' }] });
  out.chat = chat.choices[0]?.message.content;

  const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'streamed in Chromium' }], stream: true });
  let text = '';
  let chunks = 0;
  for await (const chunk of stream) {
    chunks++;
    text += chunk.choices[0]?.delta.content ?? '';
  }
  out.stream = { text, chunks };

  const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
  const edit = await client.images.edit({ model: 'dall-e-2', image: new File([png], 'pixel.png', { type: 'image/png' }), prompt: 'add a hat', size: '256x256' });
  out.edit = edit.data[0]?.url;

  // Started here, aborted by abortModels() once the test has seen the gateway hold it.
  const controller = new AbortController();
  const listed = client.models.list({ signal: controller.signal }).then(
    () => 'not aborted',
    (err: unknown) => ({ name: (err as Error).name }),
  );
  (globalThis as { abortModels?: () => Promise<unknown> }).abortModels = () => {
    controller.abort();
    return listed;
  };
  return out;
}

(globalThis as { runChecks?: typeof runChecks }).runChecks = runChecks;
