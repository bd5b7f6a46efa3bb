import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';

/** A loopback server whose sockets are all destroyed on close, so no test leaves one open. */
export interface LoopbackServer {
  url: string;
  /** Connections accepted so far. */
  connections: () => number;
  close: () => Promise<void>;
}

function track(server: Server): { sockets: Set<Socket>; count: () => number } {
  const sockets = new Set<Socket>();
  let count = 0;
  server.on('connection', (s: Socket) => {
    count++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return { sockets, count: () => count };
}

async function start(server: Server): Promise<LoopbackServer> {
  const { sockets, count } = track(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    connections: count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A raw TCP server that does `onSocket` with each connection (destroy it, or never answer). */
export function rawServer(onSocket: (socket: Socket) => void): Promise<LoopbackServer> {
  return start(createNetServer(onSocket));
}

/** An HTTP server with a handler. */
export function httpServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<LoopbackServer> {
  return start(createHttpServer(handler));
}

/** A loopback URL nobody listens on: bind a free port, then release it. */
export async function refusedURL(): Promise<string> {
  const s = await rawServer(() => undefined);
  await s.close();
  return s.url;
}

/** Writes `text` one byte per event-loop turn, then ends (bounded by the text's length). */
export async function writeByteByByte(res: ServerResponse, text: string): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i++) {
    if (res.destroyed) return;
    res.write(bytes.subarray(i, i + 1));
    await new Promise((r) => setImmediate(r));
  }
  res.end();
}
