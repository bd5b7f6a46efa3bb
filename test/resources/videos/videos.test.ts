import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APITimeoutError,
  APIUserAbortError,
  Gateway,
  GatewayError,
  NotFoundError,
  ValidationError,
  VideoTaskFailedError,
  VideoTaskNotFoundError,
  videoPrices,
  videoTaskState,
  type VideoCreateParams,
  type VideoTask,
} from '../../../src/index.js';
import { createMockGateway } from '../../../src/testing/index.js';
import { mockClient } from '../../helpers/mock-client.js';

const params: VideoCreateParams = { model: 'vendor_video2', prompt: 'a paper boat on a river', duration: 5 };
const polls = (mock: ReturnType<typeof mockClient>['mock']) => mock.requests.filter((r) => r.method === 'GET').length;

/**
 * An onProgress and a promise of its first call. generateAndWait loads its code on first use
 * (for real, not on the fake clock); its first report says the task is created and the wait
 * before the first poll has begun, so a test moves the fake clock only from there.
 */
function firstReport() {
  let reported = () => {};
  const created = new Promise<void>((resolve) => (reported = resolve));
  return { created, onProgress: () => reported() };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('videos.create and retrieve', () => {
  it('submits with async: true by default and returns a pending task', async () => {
    const { client, mock } = mockClient();
    const task = await client.videos.create(params);
    expect(task).toMatchObject({ status: 'pending', id: expect.stringMatching(/^video_mock_/) });
    expect(typeof task.created_at).toBe('number');
    expect(mock.requests[0]?.body).toEqual({ ...params, async: true });
    await client.videos.create({ ...params, async: false });
    expect(mock.requests[1]?.body).toMatchObject({ async: false });
  });

  it('moves pending -> processing -> completed with a video_url', async () => {
    vi.useFakeTimers();
    const { client } = mockClient({ videoStepMs: 1_000 });
    const task = await client.videos.create({ ...params, model: 'vendor_video2-landscape' });
    expect((await client.videos.retrieve(task.id)).status).toBe('pending');
    vi.advanceTimersByTime(1_500);
    expect((await client.videos.retrieve(task.id)).status).toBe('processing');
    vi.advanceTimersByTime(1_000);
    const done = await client.videos.retrieve(task.id);
    expect(done).toMatchObject({ status: 'completed', video_url: expect.stringMatching(/\.mp4$/) });
  });

  it('explains a 404 for a task older than 24 hours', async () => {
    vi.useFakeTimers();
    const { client } = mockClient();
    const task = await client.videos.create(params);
    vi.advanceTimersByTime(24 * 60 * 60 * 1000 + 1_000);
    const err = await client.videos.retrieve(task.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VideoTaskNotFoundError);
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err).toMatchObject({ status: 404, expired: true, taskId: task.id });
    expect((err as Error).message).toMatch(/expired: task ids can be queried for 24 hours/);
  });

  it('retries a submission that got a 503, with one Idempotency-Key so it is not billed twice', async () => {
    const { client, mock } = mockClient({ faults: [{ type: 'unavailable', path: 'videos/generations' }] });
    await client.videos.create(params);
    expect(mock.requests).toHaveLength(2);
    expect(mock.requests[0]?.headers['idempotency-key']).toBe(mock.requests[1]?.headers['idempotency-key']);
  });

  it('explains a 404 for an unknown task id', async () => {
    const { client } = mockClient();
    const err = await client.videos.retrieve('video_unknown').catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'VideoTaskNotFoundError', expired: false });
    expect((err as Error).message).toMatch(/24 hours/);
  });

  it.each(['.', '..', ''])("refuses the task id '%s', which would address another endpoint, before sending", async (id) => {
    const { client, mock } = mockClient();
    await expect(client.videos.retrieve(id)).rejects.toMatchObject({ name: 'ValidationError', field: 'taskId' });
    expect(mock.requests).toHaveLength(0);
  });

  it.each([
    ['an empty model', { ...params, model: ' ' }, 'model'],
    ['duration 7', { ...params, duration: 7 }, 'duration'],
    ['duration "5"', { ...params, duration: '5' }, 'duration'],
    ['an empty prompt', { ...params, prompt: ' ' }, 'prompt'],
  ])('rejects %s before sending', async (_, body, field) => {
    const { client, mock } = mockClient();
    await expect(client.videos.create(body as VideoCreateParams)).rejects.toMatchObject({ name: 'ValidationError', field });
    await expect(client.videos.generateAndWait(body as VideoCreateParams)).rejects.toMatchObject({ name: 'ValidationError', field });
    expect(mock.requests).toHaveLength(0);
  });
});

describe('videos.generateAndWait', () => {
  it('resolves with the completed task, reporting progress', async () => {
    // On the fake clock: processing lasts from 1 s to 2 s, and polls every 100 ms see it.
    vi.useFakeTimers();
    const { client } = mockClient({ videoStepMs: 1_000 });
    const seen: string[] = [];
    const { created, onProgress } = firstReport();
    const waiting = client.videos.generateAndWait(params, {
      pollIntervalMs: 100,
      onProgress: (t) => {
        seen.push(t.status);
        onProgress();
      },
    });
    await created;
    // Poll by poll, 3 s of fake time at most (it completes at 2 s).
    for (let i = 0; i < 30 && !seen.includes('completed'); i++) await vi.advanceTimersByTimeAsync(100);
    const done = await waiting;
    expect(done.status).toBe('completed');
    expect(done.video_url).toMatch(/^http:\/\/mock\.local\/mock-files\/video-.+\.mp4$/);
    expect(seen[0]).toBe('pending');
    expect(seen).toContain('processing');
    expect(seen.at(-1)).toBe('completed');
  });

  it('rejects with VideoTaskFailedError carrying the task and the server error', async () => {
    const { client } = mockClient({ videoStepMs: 5 });
    const err = await client.videos.generateAndWait({ ...params, prompt: 'please fail' }, { pollIntervalMs: 5 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VideoTaskFailedError);
    expect(err).toMatchObject({ error: 'Generation failed: the prompt asked the mock to fail.', task: { status: 'failed' } });
  });

  it('rejects with APITimeoutError past timeoutMs', async () => {
    const { client } = mockClient({ videoStepMs: 60_000 });
    const err = await client.videos.generateAndWait(params, { pollIntervalMs: 10, timeoutMs: 80 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APITimeoutError);
    expect((err as Error).message).toMatch(/did not finish within 80 ms \(last status: pending\)/);
  });

  it('rejects with APIUserAbortError when aborted while polling, and stops polling', async () => {
    vi.useFakeTimers();
    const { client, mock } = mockClient({ videoStepMs: 60_000 });
    const controller = new AbortController();
    const { created, onProgress } = firstReport();
    const done = client.videos
      .generateAndWait(params, {
        signal: controller.signal,
        pollIntervalMs: 10,
        onProgress: () => {
          onProgress();
          if (polls(mock) === 2) controller.abort();
        },
      })
      .catch((e: unknown) => e);
    await created;
    await vi.advanceTimersByTimeAsync(20);
    const err = await done;
    expect(err).toBeInstanceOf(APIUserAbortError);
    const count = polls(mock);
    // Were it still polling every 10 ms, a fake minute would show it.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(polls(mock)).toBe(count);
  });

  it('keeps polling the same task after a failed poll', async () => {
    const { client, mock } = mockClient({ videoStepMs: 10 }, { maxRetries: 0 });
    let injected = false;
    const done = await client.videos.generateAndWait(params, {
      pollIntervalMs: 5,
      onProgress: () => {
        if (!injected) mock.inject({ type: 'unavailable', times: 2 });
        injected = true;
      },
    });
    expect(done.status).toBe('completed');
    const ids = new Set(mock.requests.filter((r) => r.method === 'GET').map((r) => r.path));
    expect(ids.size).toBe(1);
  });

  it('treats an unknown status word as still running', async () => {
    const statuses = ['queued', 'rendering', 'completed'];
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const task = { id: 't1', created_at: 1, status: request.method === 'POST' ? 'pending' : statuses.shift(), video_url: 'https://x/v.mp4' };
      return Response.json(task);
    };
    const client = new Gateway({ apiKey: 'k', baseURL: 'http://x/v1', fetch });
    const seen: string[] = [];
    const done = await client.videos.generateAndWait(params, { pollIntervalMs: 1, onProgress: (t: VideoTask) => seen.push(t.status) });
    expect(seen).toEqual(['pending', 'queued', 'rendering', 'completed']);
    expect(done.video_url).toBe('https://x/v.mp4');
  });

  it('polls the base URL that created the task, even when the main base is healthy again', async () => {
    const main = createMockGateway({ apiKey: 'k', videoStepMs: 5, faults: [{ type: 'disconnect' }] });
    const backup = createMockGateway({ apiKey: 'k', videoStepMs: 5 });
    const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      return new URL(request.url).host === 'main.test' ? main.fetch(request) : backup.fetch(request);
    };
    const client = new Gateway({ apiKey: 'k', baseURL: 'http://main.test/v1', backupBaseURL: 'http://backup.test/v1', failoverCooldown: 0, fetch });
    const done = await client.videos.generateAndWait(params, { pollIntervalMs: 5 });
    expect(done.status).toBe('completed');
    expect(main.requests.map((r) => r.method)).toEqual(['POST']);
    expect(backup.requests.filter((r) => r.method === 'GET').length).toBeGreaterThan(0);
  });

  it.each([
    [5, 5_000, 10_000],
    [10, 5_000, 10_000],
    [15, 15_000, 30_000],
    [20, 15_000, 30_000],
  ] as const)('polls a %i s video every %i to %i ms by default', async (duration, min, max) => {
    vi.useFakeTimers();
    for (const [random, wait] of [
      [0, min],
      [1, max],
    ] as const) {
      vi.spyOn(Math, 'random').mockReturnValue(random);
      const { client, mock } = mockClient({ videoStepMs: 1_000_000 });
      const controller = new AbortController();
      const { created, onProgress } = firstReport();
      const done = client.videos.generateAndWait({ ...params, duration }, { signal: controller.signal, onProgress }).catch((e: unknown) => e);
      await created;
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(polls(mock)).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(polls(mock)).toBe(1);
      await vi.advanceTimersByTimeAsync(wait);
      expect(polls(mock)).toBe(2);
      controller.abort();
      expect(await done).toBeInstanceOf(APIUserAbortError);
    }
  });

  it('uses an explicit pollIntervalMs as given', async () => {
    vi.useFakeTimers();
    const { client, mock } = mockClient({ videoStepMs: 1_000_000 });
    const controller = new AbortController();
    const { created, onProgress } = firstReport();
    const done = client.videos.generateAndWait({ ...params, duration: 20 }, { pollIntervalMs: 1_234, signal: controller.signal, onProgress }).catch((e: unknown) => e);
    await created;
    await vi.advanceTimersByTimeAsync(1_233);
    expect(polls(mock)).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(polls(mock)).toBe(1);
    controller.abort();
    await done;
  });

  it('rejects bad wait options before sending', async () => {
    const { client, mock } = mockClient();
    await expect(client.videos.generateAndWait(params, { pollIntervalMs: -1 })).rejects.toBeInstanceOf(ValidationError);
    await expect(client.videos.generateAndWait(params, { timeoutMs: 0 })).rejects.toBeInstanceOf(ValidationError);
    expect(mock.requests).toHaveLength(0);
  });
});

describe('video tasks as real gateways word them', () => {
  const KEY = 'sk-video-key-0123456789';
  /** A gateway whose task endpoint answers with each body in turn (the last one repeats). */
  function gateway(polls: unknown[], submit: unknown = { id: 't1', status: 'SUBMITTED', created_at: 1 }) {
    const seen: Array<{ method: string; body: unknown }> = [];
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      seen.push({ method: request.method, body: request.method === 'POST' ? await request.json() : undefined });
      const gets = seen.filter((s) => s.method === 'GET').length;
      const payload = request.method === 'POST' ? submit : polls[Math.min(gets, polls.length) - 1];
      return payload instanceof Response ? payload : Response.json(payload);
    };
    return { client: new Gateway({ apiKey: KEY, baseURL: 'http://x.test/v1', fetch, maxRetries: 0 }), seen };
  }
  const wait = (client: Gateway, body: Partial<VideoCreateParams> = {}) => client.videos.generateAndWait({ ...params, ...body }, { pollIntervalMs: 1 });

  it('sends any model id as it is (gateways add video models)', async () => {
    const { client, seen } = gateway([{ id: 't1', status: 'completed', created_at: 1, video_url: 'https://cdn/v.mp4' }]);
    await wait(client, { model: 'kling-v2-master' });
    expect(seen[0]?.body).toMatchObject({ model: 'kling-v2-master' });
  });

  it.each([['succeeded'], ['SUCCESS'], ['Completed']])('finishes on %s', async (word) => {
    const { client } = gateway([{ id: 't1', status: 'IN_PROGRESS', created_at: 1 }, { id: 't1', status: word, created_at: 1, video_url: 'https://cdn/v.mp4' }]);
    const done = await wait(client);
    expect(done.status).toBe(word);
    expect(done.video_url).toBe('https://cdn/v.mp4');
  });

  it.each([['FAILURE'], ['cancelled'], ['canceled'], ['expired'], ['Failed']])('fails on %s, keeping the word on the task', async (word) => {
    const { client } = gateway([{ id: 't1', status: 'queued', created_at: 1 }, { id: 't1', status: word, created_at: 1, fail_reason: 'content policy' }]);
    const err = await wait(client).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VideoTaskFailedError);
    expect(err).toMatchObject({ error: 'content policy', task: { status: word } });
  });

  it('keeps polling through NOT_START, QUEUED, in_progress, UNKNOWN and new words', async () => {
    const words = ['NOT_START', 'QUEUED', 'in_progress', 'UNKNOWN', 'rendering'];
    const { client, seen } = gateway([...words.map((status) => ({ id: 't1', status, created_at: 1 })), { id: 't1', status: 'success', created_at: 1, video_url: 'https://cdn/v.mp4' }]);
    const statuses: string[] = [];
    await client.videos.generateAndWait(params, { pollIntervalMs: 1, onProgress: (t) => statuses.push(t.status) });
    expect(statuses).toEqual(['SUBMITTED', ...words, 'success']);
    expect(seen.filter((s) => s.method === 'GET')).toHaveLength(6);
  });

  it.each([
    ['url', { url: 'https://cdn/a.mp4' }],
    ['result_url', { result_url: 'https://cdn/a.mp4' }],
    ['metadata.url', { metadata: { url: 'https://cdn/a.mp4' } }],
  ])('fills video_url from %s', async (_, extra) => {
    const { client } = gateway([{ id: 't1', status: 'succeeded', created_at: 1, ...extra }]);
    expect((await wait(client)).video_url).toBe('https://cdn/a.mp4');
    expect((await client.videos.retrieve('t1')).video_url).toBe('https://cdn/a.mp4');
  });

  it('reads a progress of "30%" as 30', async () => {
    const { client } = gateway([{ id: 't1', status: 'IN_PROGRESS', created_at: 1, progress: '30%' }]);
    expect((await client.videos.retrieve('t1')).progress).toBe(30);
  });

  it('fails clearly when a completed task has no video URL anywhere', async () => {
    const { client } = gateway([{ id: 't1', status: 'completed', created_at: 1 }]);
    const err = await wait(client).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as Error).message).toMatch(/completed .* but the gateway sent no video URL \(looked in video_url, url, result_url and metadata.url\)/);
  });

  it('takes the text of an error object, keeping the object on the task', async () => {
    const error = { message: 'upstream rejected the prompt', code: 'prompt_rejected' };
    const { client } = gateway([{ id: 't1', status: 'failed', created_at: 1, error }]);
    const err = (await wait(client).catch((e: unknown) => e)) as VideoTaskFailedError;
    expect(err.error).toBe('upstream rejected the prompt');
    expect(err.message).toBe('Video task t1 failed: upstream rejected the prompt.');
    expect(err.task.error).toEqual(error);
  });

  it('redacts a key echoed in a failed task from the message, error, task and stack', async () => {
    const { client } = gateway([{ id: 't1', status: 'failed', created_at: 1, error: { message: `auth with ${KEY} refused`, detail: `Bearer ${KEY}` } }]);
    const err = (await wait(client).catch((e: unknown) => e)) as VideoTaskFailedError;
    expect(err).toBeInstanceOf(VideoTaskFailedError);
    for (const text of [err.message, err.error ?? '', JSON.stringify(err.task), err.stack ?? '', String(err)]) expect(text).not.toContain(KEY);
    expect(err.error).toBe('auth with [REDACTED] refused');
  });

  it('turns 400 task_not_exist into VideoTaskNotFoundError, like a 404', async () => {
    const { client } = gateway([Response.json({ code: 'task_not_exist', message: 'task_not_exist', data: null }, { status: 400 })]);
    const err = await client.videos.retrieve('t_unknown').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VideoTaskNotFoundError);
    expect(err).toMatchObject({ status: 400, code: 'task_not_exist', taskId: 't_unknown', expired: false });
    expect((err as Error).message).toMatch(/was not found \(400 task_not_exist\).*24 hours/);
  });

  it('reads each status word the same way through videoTaskState', () => {
    expect(['completed', 'SUCCEEDED', 'success'].map((status) => videoTaskState({ status }))).toEqual(['completed', 'completed', 'completed']);
    expect(['FAILURE', 'Cancelled', 'expired'].map((status) => videoTaskState({ status }))).toEqual(['failed', 'failed', 'failed']);
    expect(['pending', 'NOT_START', 'unknown', 'whatever'].map((status) => videoTaskState({ status }))).toEqual(['running', 'running', 'running', 'running']);
  });
});

describe('videos.estimateCost', () => {
  it('prices each duration as documented', () => {
    const { client } = mockClient();
    expect([5, 10, 15, 20].map((d) => client.videos.estimateCost(d as 5))).toEqual([0.08, 0.15, 0.3, 0.5]);
    expect(() => client.videos.estimateCost(30 as 5)).toThrow(ValidationError);
  });

  it('agrees with videoPrices and names the durations offered when refusing one', () => {
    const { client } = mockClient();
    expect(videoPrices).toEqual({ 5: 0.08, 10: 0.15, 15: 0.3, 20: 0.5 });
    expect(() => client.videos.estimateCost('5' as unknown as 5)).toThrow('Invalid duration: must be 5, 10, 15 or 20 (seconds)');
  });
});
