import type { IncomingMessage, ServerResponse } from 'node:http';

/** Where `listen()` binds. Only loopback addresses are accepted. */
export interface ServeOptions {
  /** @default 0 (a free port) */
  port?: number | undefined;
  /** @default '127.0.0.1' */
  host?: '127.0.0.1' | 'localhost' | '::1' | undefined;
}

/** A running server. */
export interface Served {
  /** Base URL ending in `/v1`, e.g. `http://127.0.0.1:51234/v1`. */
  url: string;
  port: number;
  /** Stops accepting, drops open connections (streams included) and resolves when closed. */
  close(): Promise<void>;
}

type Handler = (request: Request) => Promise<Response>;

/**
 * Serves a fetch-style handler over node:http. A handler that rejects drops the connection
 * (the client sees a reset), and a response body that errors cuts the socket mid-stream,
 * so faults look on the wire as they would from a real server.
 */
export async function serve(handler: Handler, options: ServeOptions = {}): Promise<Served> {
  const http = await import('node:http');
  const host = options.host ?? '127.0.0.1';
  const server = http.createServer((req, res) => {
    void respond(handler, host, req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const urlHost = host === '::1' ? '[::1]' : host;
  return {
    url: `http://${urlHost}:${port}/v1`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function respond(handler: Handler, host: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const aborter = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) aborter.abort(new Error('client disconnected'));
  });
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(`http://${req.headers.host ?? host}${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      body: hasBody ? Buffer.concat(chunks) : null,
      signal: aborter.signal,
    });
    const response = await handler(request);
    const outHeaders: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      outHeaders[key] = value;
    });
    res.writeHead(response.status, outHeaders);
    res.flushHeaders();
    if (response.body) {
      const reader = response.body.getReader();
      aborter.signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        res.write(value);
      }
    }
    res.end();
  } catch {
    // A rejected handler or a failed body is a dropped connection on the wire.
    req.socket.destroy();
  }
}
