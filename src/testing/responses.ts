import type { MockChatReply } from './chat-script.js';
import { countWords, isObject, outOfRange, textOf, type MockContext } from './context.js';
import { familyOf } from './families.js';
import { checkResponsesRequest } from './family-errors.js';
import { sampleFromSchema } from './json-schema.js';

function inputText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (!Array.isArray(input)) return '';
  const last = [...input].reverse().find((i) => isObject(i) && (i.role === 'user' || i.type === 'function_call_output'));
  if (!isObject(last)) return '';
  if (last.type === 'function_call_output') return `the tool returned: ${String(last.output)}`;
  return textOf(last.content);
}

/**
 * OpenAI's refusal of a function_call_output whose call is not in the input (without
 * `previous_response_id` the whole conversation is sent, each output after its call).
 */
function unmatchedOutput(input: unknown): string | undefined {
  if (!Array.isArray(input)) return undefined;
  const calls = new Set<unknown>();
  for (const item of input) {
    if (!isObject(item)) continue;
    if (item.type === 'function_call') calls.add(item.call_id);
    else if (item.type === 'function_call_output' && !calls.has(item.call_id)) return `No tool call found for function call output with call_id ${String(item.call_id)}.`;
  }
  return undefined;
}

type OutputItem = Record<string, unknown> & { type: 'function_call' | 'message'; id: string };

/** A scripted reply ({@link MockChatReply}) as /responses output items: its tool calls, then its message when it has one. */
function scriptedItems(script: MockChatReply, id: number): OutputItem[] {
  const calls: OutputItem[] = (script.toolCalls ?? []).map((call, i) => ({
    type: 'function_call',
    id: `fc_${id}_${i}`,
    call_id: call.id ?? `call_${id}_${i}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    status: 'completed',
  }));
  if (calls.length > 0 && script.content === undefined && script.refusal === undefined) return calls;
  const content: Array<Record<string, unknown>> = [];
  if (script.content !== undefined || script.refusal === undefined) content.push({ type: 'output_text', text: script.content ?? '', annotations: [] });
  if (script.refusal !== undefined) content.push({ type: 'refusal', refusal: script.refusal });
  return [...calls, { type: 'message', id: `msg_${id}`, role: 'assistant', status: 'completed', content }];
}

const textOfItems = (items: OutputItem[]) => items.map((item) => (item.type === 'message' ? (item.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('') : '')).join('');

/** A scripted finish reason as /responses says it: `length` and `content_filter` make the response incomplete. */
function ending(script: MockChatReply | undefined): { status: 'completed' | 'incomplete'; incomplete_details: { reason: string } | null } {
  const reason = script?.finishReason === 'length' ? 'max_output_tokens' : script?.finishReason === 'content_filter' ? 'content_filter' : undefined;
  return reason ? { status: 'incomplete', incomplete_details: { reason } } : { status: 'completed', incomplete_details: null };
}

/**
 * POST /responses: the next scripted reply from `next` as output items, else a message saying
 * back the input, or a function call when tools are offered; streams typed events.
 */
export function responses(ctx: MockContext, next: () => MockChatReply | undefined = () => undefined): Response {
  const { body } = ctx;
  const bad = ctx.checkModel(body.model, 'chat', 'responses');
  if (bad) return bad;
  const family = familyOf(ctx.model(body.model));
  const refusal = family && checkResponsesRequest(family, { body, model: String(body.model), id: ctx.id, now: ctx.now });
  if (refusal) return ctx.reply(refusal.status, refusal.body);
  const text = inputText(body.input);
  if (!text && !(typeof body.input === 'string' && body.input)) return ctx.invalid("'input' must be a non-empty string or array", 'input');
  const range = outOfRange(body, 'temperature', 0, 2) ?? outOfRange(body, 'top_p', 0, 1) ?? outOfRange(body, 'max_output_tokens', 1, 1_000_000, true);
  if (range) return ctx.invalid(range, range.split(' ')[0] ?? null);
  // With previous_response_id the calls are in the stored response, not in this input.
  const unmatched = body.previous_response_id === undefined || body.previous_response_id === null ? unmatchedOutput(body.input) : undefined;
  if (unmatched) return ctx.invalid(unmatched, 'input');

  const id = `resp_mock_${ctx.id}`;
  const tools = Array.isArray(body.tools) ? body.tools.filter(isObject) : [];
  const answered = Array.isArray(body.input) && body.input.some((i) => isObject(i) && i.type === 'function_call_output');
  // Structured output (`text.format`), as chat's `response_format`: a sample of the schema, or the reply as JSON.
  const format = isObject(body.text) && isObject(body.text.format) ? body.text.format : {};
  const structured = format.type === 'json_schema' || format.type === 'json_object';
  const said = structured ? JSON.stringify(format.schema !== undefined ? sampleFromSchema(format.schema, text) : { reply: `You said: ${text}` }) : `You said: ${text}`;
  // Taken only now, so a request turned away above leaves the script for its retry.
  const script = next();
  const items: OutputItem[] = script
    ? scriptedItems(script, ctx.id)
    : [
        tools.length > 0 && body.tool_choice !== 'none' && !answered
          ? { type: 'function_call', id: `fc_${ctx.id}`, call_id: `call_${ctx.id}`, name: String(tools[0]?.name ?? 'tool'), arguments: JSON.stringify(sampleFromSchema(tools[0]?.parameters ?? { type: 'object', properties: {} }, text)), status: 'completed' }
          : { type: 'message', id: `msg_${ctx.id}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: said, annotations: [] }] },
      ];
  const reply = textOfItems(items);
  const usage = { input_tokens: countWords(text), output_tokens: countWords(reply), total_tokens: countWords(text) + countWords(reply) };
  ctx.charge({ kind: 'tokens', model: String(body.model), stream: body.stream === true, prompt: usage.input_tokens, completion: usage.output_tokens });
  const base = { id, object: 'response', created_at: Math.floor(ctx.now / 1000), model: body.model, error: null, incomplete_details: null };
  const end = ending(script);
  const done = { ...base, ...end, output: items, output_text: reply, usage };
  if (body.stream !== true) return ctx.reply(200, done);

  const running = { ...base, status: 'in_progress', output: [], output_text: '', usage: null };
  const events: Array<Record<string, unknown>> = [
    { type: 'response.created', response: running },
    { type: 'response.in_progress', response: running },
  ];
  items.forEach((item, index) => {
    events.push({ type: 'response.output_item.added', output_index: index, item: { ...item, status: 'in_progress', ...(item.type === 'message' ? { content: [] } : { arguments: '' }) } });
    if (item.type === 'message') {
      (item.content as Array<{ type: string; text?: string; refusal?: string }>).forEach((part, content_index) => {
        const at = { item_id: item.id, output_index: index, content_index };
        if (part.type === 'refusal') {
          events.push({ type: 'response.refusal.delta', ...at, delta: part.refusal }, { type: 'response.refusal.done', ...at, refusal: part.refusal });
          return;
        }
        const text = part.text ?? '';
        for (const delta of text.split(/(?<= )/)) events.push({ type: 'response.output_text.delta', ...at, delta });
        events.push({ type: 'response.output_text.done', ...at, text });
      });
    } else {
      events.push({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index: index, delta: item.arguments });
      events.push({ type: 'response.function_call_arguments.done', item_id: item.id, output_index: index, arguments: item.arguments });
    }
    events.push({ type: 'response.output_item.done', output_index: index, item });
  });
  events.push({ type: end.status === 'completed' ? 'response.completed' : 'response.incomplete', response: done });
  return ctx.sse(
    events.map((e, i) => ({ event: String(e.type), data: { ...e, sequence_number: i } })),
    { done: false },
  );
}
