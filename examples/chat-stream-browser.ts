// Streaming to a browser: a server route sends the stream as NDJSON, and the page reads it back with chatStreamFromReadable.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chatStreamFromReadable, Gateway } from 'unified-gateway';

const client = new Gateway();
const model = process.env.GATEWAY_CHAT_MODEL ?? 'gpt-4o-mini';

// The server route. In a fetch-style framework (Next.js, Hono, Deno, Bun) it is one line:
// return new Response(stream.toReadableStream(), { headers: { 'content-type': 'application/x-ndjson' } });
const server = createServer(async (_req, res) => {
  let body: ReadableStream<Uint8Array>;
  try {
    const stream = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Write a haiku about browsers.' }], stream: true });
    body = stream.toReadableStream();
  } catch {
    res.writeHead(502).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  const reader = body.getReader();
  // The page went away: cancelling the body aborts the gateway request, which would otherwise generate the whole reply for nobody.
  res.on('close', () => void reader.cancel());
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) res.write(r.value);
    res.end();
  } catch {
    res.destroy(); // the stream failed: cut the response, so the page gets an error, not an end
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;

// The page.
const res = await fetch(`http://127.0.0.1:${port}/api/chat`, { method: 'POST' });
if (!res.ok || !res.body) throw new Error(`the route answered ${res.status}`);
const stream = chatStreamFromReadable(res.body);
for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta.content ?? '');
const completion = await stream.finalChatCompletion();
console.log(`\nfinish_reason: ${completion.choices[0]?.finish_reason}`);
server.close();
