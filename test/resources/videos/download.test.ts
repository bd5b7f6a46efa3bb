import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { APIConnectionError, Gateway, ValidationError, type DownloadProgress, type VideoTask } from '../../../src/index.js';
import { createMockGateway } from '../../../src/testing/index.js';
import { fastRetries } from '../../helpers/fixtures.js';
import { httpServer, type LoopbackServer } from '../../helpers/sockets.js';

// Over real sockets on 127.0.0.1: a different port is a different origin (a CDN).
const KEY = 'sk-download-key-0123456789';
const open: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function server(handle: (req: IncomingMessage, res: ServerResponse, n: number) => void) {
  const seen: Array<{ path: string; authorization: string | undefined }> = [];
  const s = await httpServer((req, res) => {
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization });
    handle(req, res, seen.length);
  });
  open.push(s);
  return { ...s, origin: new URL(s.url).origin, seen };
}

const video = Buffer.from(Array.from({ length: 50_000 }, (_, i) => i % 251));
/**
 * Sends the video in five pieces of 10 kB; with `between`, each piece after the first waits
 * for it (the client reporting progress, say), so the pieces arrive apart however the
 * machine schedules the two ends.
 */
const sendVideo = (res: ServerResponse, { length = true, between }: { length?: boolean; between?: () => Promise<void> } = {}) => {
  res.writeHead(200, { 'content-type': 'video/mp4', ...(length ? { 'content-length': String(video.length) } : {}) });
  void (async () => {
    for (let i = 0; i < video.length && !res.destroyed; i += 10_000) {
      if (i > 0) await between?.();
      res.write(video.subarray(i, i + 10_000));
    }
    res.end();
  })();
};
/** A `between` for sendVideo and an onProgress that lets it go on: a piece is sent once progress was reported after the one before. */
function pacedByProgress(progress: DownloadProgress[]) {
  let reported = () => {};
  return {
    between: () => new Promise<void>((resolve) => (reported = resolve)),
    onProgress: (p: DownloadProgress) => {
      progress.push(p);
      reported();
    },
  };
}
const task = (url: string): VideoTask => ({ id: 't1', status: 'completed', created_at: 1, video_url: url });

describe('videos.download', () => {
  it("names a CDN's failure without its signed query, and without the base-URL hint meant for the gateway", async () => {
    const gw = await server((_, res) => res.end('{}'));
    const cdn = await server((_, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no such object');
    });
    const seen: string[] = [];
    const logger = { error: (l: string) => seen.push(l), warn: (l: string) => seen.push(l), info: (l: string) => seen.push(l), debug: (l: string) => seen.push(l) };
    const hooks = { onRequest: (e: { url: string }) => seen.push(e.url), onResponse: (e: { url: string }) => seen.push(e.url) };
    const err = await new Gateway({ apiKey: KEY, baseURL: `${gw.origin}/api`, maxRetries: 0, logger, logLevel: 'debug', hooks })
      .videos.download(`${cdn.origin}/v.mp4?X-Amz-Signature=secret-signature-123`)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 404 });
    expect((err as Error).message).toContain(`${cdn.origin}/v.mp4`);
    expect((err as Error).message).not.toMatch(/secret-signature-123|Check the base URL/);
    // Hooks and log lines name it the same way; the request itself went to the signed URL.
    // (They are written as the call goes; a turn lets any line still queued in promise jobs come.)
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen.join('\n')).toContain(`${cdn.origin}/v.mp4`);
    expect(seen.join('\n')).not.toContain('secret-signature-123');
    expect(cdn.seen[0]?.path).toBe('/v.mp4?X-Amz-Signature=secret-signature-123');
  });

  it('downloads a completed task, reporting progress up to Content-Length', async () => {
    const progress: DownloadProgress[] = [];
    const { between, onProgress } = pacedByProgress(progress);
    const gw = await server((_req, res) => sendVideo(res, { between }));
    const client = new Gateway({ apiKey: KEY, baseURL: gw.url });
    const response = await client.videos.download(task(`${gw.origin}/v1/videos/t1/content`), { onProgress });
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.equals(video)).toBe(true);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toEqual({ loadedBytes: video.length, totalBytes: video.length });
    expect(progress.every((p) => p.totalBytes === video.length)).toBe(true);
  });

  it('reports totalBytes null without a Content-Length', async () => {
    const gw = await server((_req, res) => sendVideo(res, { length: false }));
    const progress: DownloadProgress[] = [];
    const response = await new Gateway({ apiKey: KEY, baseURL: gw.url }).videos.download(`${gw.origin}/files/v.mp4`, { onProgress: (p) => progress.push(p) });
    await response.arrayBuffer();
    expect(progress.at(-1)).toEqual({ loadedBytes: video.length, totalBytes: null });
  });

  it('sends the key to the gateway origin only: never to a CDN, also not after a redirect', async () => {
    const cdn = await server((_req, res) => sendVideo(res));
    const gw = await server((req, res) => {
      if (req.url === '/v1/videos/t1/content') {
        res.writeHead(302, { location: `${cdn.origin}/signed/v.mp4?sig=abc` });
        res.end();
      } else sendVideo(res);
    });
    const client = new Gateway({ apiKey: KEY, baseURL: gw.url });
    await (await client.videos.download(`${gw.origin}/v1/videos/t1/content`)).arrayBuffer();
    await (await client.videos.download(`${cdn.origin}/direct/v.mp4`)).arrayBuffer();
    expect(gw.seen).toEqual([{ path: '/v1/videos/t1/content', authorization: `Bearer ${KEY}` }]);
    expect(cdn.seen).toEqual([
      { path: '/signed/v.mp4?sig=abc', authorization: undefined },
      { path: '/direct/v.mp4', authorization: undefined },
    ]);
  });

  it('sends a CDN none of the client’s headers: they may hold credentials', async () => {
    const seen: Array<Record<string, string | string[] | undefined>> = [];
    const cdn = await server((req, res) => {
      seen.push(req.headers);
      sendVideo(res);
    });
    const gw = await server((_req, res) => {
      res.writeHead(307, { location: `${cdn.origin}/signed/v.mp4` });
      res.end();
    });
    const client = new Gateway({ apiKey: KEY, baseURL: gw.url, defaultHeaders: { 'x-api-key': 'team-secret' } });
    await (await client.videos.download(`${cdn.origin}/direct.mp4`)).arrayBuffer();
    await (await client.videos.download(`${gw.origin}/v1/videos/t1/content`)).arrayBuffer();
    expect(seen).toHaveLength(2);
    for (const headers of seen) {
      expect(headers.authorization).toBeUndefined();
      expect(headers['x-api-key']).toBeUndefined();
    }
  });

  it('resolves a relative video_url against the gateway', async () => {
    const gw = await server((_req, res) => sendVideo(res));
    await (await new Gateway({ apiKey: KEY, baseURL: gw.url }).videos.download(task('/v1/videos/t1/content'))).arrayBuffer();
    expect(gw.seen).toEqual([{ path: '/v1/videos/t1/content', authorization: `Bearer ${KEY}` }]);
  });

  it('retries a download that fails before its first byte', async () => {
    const gw = await server((req, res, n) => (n === 1 ? req.socket.destroy() : sendVideo(res)));
    const response = await new Gateway(fastRetries({ apiKey: KEY, baseURL: gw.url })).videos.download(`${gw.origin}/v1/v.mp4`);
    expect(Buffer.from(await response.arrayBuffer()).equals(video)).toBe(true);
    expect(gw.seen).toHaveLength(2);
  });

  it('rejects a body cut short of its Content-Length, and does not retry once bytes arrived', async () => {
    let cut = () => {};
    const gw = await server((req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(video.length) });
      res.write(video.subarray(0, 20_000));
      cut = () => req.socket.destroy();
    });
    // download() resolves once the first bytes are in: the server cuts the connection only
    // then, not 20 ms after writing (a busy client may not have read them by then, and a cut
    // before any byte is retried).
    const response = await new Gateway({ apiKey: KEY, baseURL: gw.url }).videos.download(`${gw.origin}/v1/v.mp4`);
    cut();
    const err = await response.arrayBuffer().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toMatch(/Download cut after \d+ of 50000 bytes/);
    expect(gw.seen).toHaveLength(1);
  });

  it('downloads what the mock gateway made, end to end', async () => {
    const mock = createMockGateway({ apiKey: KEY, videoStepMs: 5 });
    const served = await mock.listen();
    open.push({ url: served.url, connections: () => 0, close: served.close });
    const client = new Gateway({ apiKey: KEY, baseURL: served.url });
    const done = await client.videos.generateAndWait({ model: 'vendor_video2', prompt: 'a boat', duration: 5 }, { pollIntervalMs: 5 });
    const bytes = new Uint8Array(await (await client.videos.download(done)).arrayBuffer());
    expect(Array.from(bytes.subarray(4, 8))).toEqual([102, 116, 121, 112]); // "ftyp"
  });

  it('needs a task with a video_url, or a URL', async () => {
    const client = new Gateway({ apiKey: KEY, baseURL: 'http://127.0.0.1:9/v1', fetch: () => Promise.reject(new Error('sent')) });
    await expect(client.videos.download({ id: 't', status: 'processing', created_at: 1 })).rejects.toBeInstanceOf(ValidationError);
    await expect(client.videos.download('')).rejects.toBeInstanceOf(ValidationError);
  });
});
