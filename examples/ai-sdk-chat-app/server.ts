// A chat app on the Vercel AI SDK: a Node route that answers with the AI SDK's UI message
// stream, and a page that chats through it. Run: npx tsx examples/ai-sdk-chat-app/server.ts
// Without GATEWAY_API_KEY and GATEWAY_BASE_URL it starts the bundled mock gateway.
import { build } from 'esbuild';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { join } from 'node:path';
import { convertToModelMessages, streamText, type UIMessage } from 'ai';
import { createUnifiedGateway, type UnifiedGatewayProvider } from 'unified-gateway/ai-sdk';
import { createMockGateway } from 'unified-gateway/testing';

const html = `<!doctype html><meta charset="utf-8"><title>unified-gateway × AI SDK</title>
<style>body{font:16px system-ui;max-width:40rem;margin:2rem auto}#log p{margin:.4rem 0}.user{color:#555}</style>
<h1>Chat</h1><div id="log"></div>
<form id="form"><input id="input" autofocus placeholder="Say something" size="50"> <button>Send</button></form>
<script type="module" src="/page.js"></script>`;

/** The app: GET / (the page), GET /page.js (page.ts bundled once), POST /api/chat (the route). */
export async function createChatServer(gw: UnifiedGatewayProvider, model = process.env.GATEWAY_CHAT_MODEL ?? 'gpt-4o-mini'): Promise<Server> {
  const page = await build({ entryPoints: [join(import.meta.dirname, 'page.ts')], bundle: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'error' });
  const script = page.outputFiles[0]?.contents ?? new Uint8Array();
  return createServer(async (req, res) => {
    if (req.method === 'GET' && req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    if (req.method === 'GET' && req.url === '/page.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    if (req.method !== 'POST' || req.url !== '/api/chat') return void res.writeHead(404).end();
    // The route: UI messages in, the AI SDK's UI message stream out. Closing the tab aborts the gateway call.
    const { messages } = JSON.parse(await readBody(req)) as { messages: UIMessage[] };
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const result = streamText({ model: gw(model), system: 'You are terse.', messages: await convertToModelMessages(messages), abortSignal: abort.signal });
    result.pipeUIMessageStreamToResponse(res);
  });
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const piece of req) body += String(piece);
  return body;
}

if (import.meta.filename === process.argv[1]) {
  let gw: UnifiedGatewayProvider;
  if (process.env.GATEWAY_API_KEY && process.env.GATEWAY_BASE_URL) {
    gw = createUnifiedGateway(); // GATEWAY_* variables
  } else {
    const served = await createMockGateway({ apiKey: 'demo-key', frameDelayMs: 30 }).listen();
    gw = createUnifiedGateway({ apiKey: 'demo-key', baseURL: served.url });
    console.log(`mock gateway at ${served.url} (set GATEWAY_API_KEY and GATEWAY_BASE_URL for the real one)`);
  }
  const server = await createChatServer(gw);
  const port = Number(process.env.PORT ?? 3000);
  server.listen(port, '127.0.0.1', () => console.log(`chat app at http://127.0.0.1:${port}/`));
}
