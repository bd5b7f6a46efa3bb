import type { MockContext } from './context.js';

/** A video task as the mock keeps it. */
interface Task {
  id: string;
  model: string;
  prompt: string;
  duration: number;
  createdAt: number;
}

/** Task ids can be queried for 24 hours, as on the gateway. */
const TTL_MS = 24 * 60 * 60 * 1000;
const MODEL = /^[A-Za-z0-9][\w.-]*_video2(-landscape)?$/;

/**
 * Video tasks that move pending → processing → completed (or failed when the prompt asks
 * for it, e.g. "please fail"). `stepMs` sets the time scale: a task is pending for one step
 * and processing for one step per 5 s of video.
 */
export function createVideoStore(stepMs: number) {
  const tasks = new Map<string, Task>();

  const view = (task: Task, now: number) => {
    const elapsed = now - task.createdAt;
    const processingEnds = stepMs * (1 + task.duration / 5);
    const base = { id: task.id, object: 'video.generation', model: task.model, created_at: Math.floor(task.createdAt / 1000) };
    if (elapsed < stepMs) return { ...base, status: 'pending' };
    if (elapsed < processingEnds) return { ...base, status: 'processing', progress: Math.floor(((elapsed - stepMs) / (processingEnds - stepMs)) * 100) };
    if (/\bfail/i.test(task.prompt)) return { ...base, status: 'failed', error: 'Generation failed: the prompt asked the mock to fail.' };
    return { ...base, status: 'completed', video_url: `/mock-files/video-${task.id}.mp4` };
  };

  return {
    /** POST /videos/generations */
    create(ctx: MockContext): Response {
      const { body } = ctx;
      if (typeof body.model !== 'string' || !MODEL.test(body.model)) return ctx.invalid("model must be '<vendor>_video2' or '<vendor>_video2-landscape'", 'model');
      const bad = ctx.checkModel(body.model, 'video', 'video generation');
      if (bad) return bad;
      if (typeof body.prompt !== 'string' || !body.prompt) return ctx.invalid('prompt is required', 'prompt');
      if (![5, 10, 15, 20].includes(body.duration as number)) return ctx.invalid('duration must be 5, 10, 15 or 20', 'duration');
      const task: Task = { id: `video_mock_${ctx.id}`, model: body.model, prompt: body.prompt, duration: body.duration as number, createdAt: ctx.now };
      tasks.set(task.id, task);
      ctx.charge({ kind: 'video', model: task.model, seconds: task.duration });
      return ctx.reply(200, { id: task.id, status: 'pending', created_at: Math.floor(task.createdAt / 1000) });
    },
    /** GET /videos/generations/{id}: 404 for unknown ids and for tasks older than 24 hours. */
    retrieve(ctx: MockContext, taskId: string): Response {
      const task = tasks.get(taskId);
      if (!task || ctx.now - task.createdAt > TTL_MS) {
        return ctx.reply(404, { error: { message: `Task ${taskId} not found or expired.`, type: 'invalid_request_error', param: null, code: 'task_not_found' } });
      }
      const out = view(task, ctx.now);
      return ctx.reply(200, 'video_url' in out ? { ...out, video_url: `${ctx.origin}${out.video_url}` } : out);
    },
  };
}
