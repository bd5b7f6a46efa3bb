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

/** POST /responses: a message saying back the input, or a function call when tools are offered; streams typed events. */
export function responses(ctx: MockContext): Response {
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

  const id = `resp_mock_${ctx.id}`;
  const tools = Array.isArray(body.tools) ? body.tools.filter(isObject) : [];
  const answered = Array.isArray(body.input) && body.input.some((i) => isObject(i) && i.type === 'function_call_output');
  // Structured output (`text.format`), as chat's `response_format`: a sample of the schema, or the reply as JSON.
  const format = isObject(body.text) && isObject(body.text.format) ? body.text.format : {};
  const structured = format.type === 'json_schema' || format.type === 'json_object';
  const reply = structured ? JSON.stringify(format.schema !== undefined ? sampleFromSchema(format.schema, text) : { reply: `You said: ${text}` }) : `You said: ${text}`;
  const item =
    tools.length > 0 && body.tool_choice !== 'none' && !answered
      ? { type: 'function_call', id: `fc_${ctx.id}`, call_id: `call_${ctx.id}`, name: String(tools[0]?.name ?? 'tool'), arguments: JSON.stringify(sampleFromSchema(tools[0]?.parameters ?? { type: 'object', properties: {} }, text)), status: 'completed' }
      : { type: 'message', id: `msg_${ctx.id}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply, annotations: [] }] };
  const usage = { input_tokens: countWords(text), output_tokens: countWords(reply), total_tokens: countWords(text) + countWords(reply) };
  ctx.charge({ kind: 'tokens', model: String(body.model), stream: body.stream === true, prompt: usage.input_tokens, completion: usage.output_tokens });
  const base = { id, object: 'response', created_at: Math.floor(ctx.now / 1000), model: body.model, error: null, incomplete_details: null };
  const done = { ...base, status: 'completed', output: [item], output_text: item.type === 'message' ? reply : '', usage };
  if (body.stream !== true) return ctx.reply(200, done);

  const running = { ...base, status: 'in_progress', output: [], output_text: '', usage: null };
  const events: Array<Record<string, unknown>> = [
    { type: 'response.created', response: running },
    { type: 'response.in_progress', response: running },
    { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', ...(item.type === 'message' ? { content: [] } : { arguments: '' }) } },
  ];
  if (item.type === 'message') {
    for (const delta of reply.split(/(?<= )/)) events.push({ type: 'response.output_text.delta', item_id: item.id, output_index: 0, content_index: 0, delta });
    events.push({ type: 'response.output_text.done', item_id: item.id, output_index: 0, content_index: 0, text: reply });
  } else {
    events.push({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index: 0, delta: item.arguments });
    events.push({ type: 'response.function_call_arguments.done', item_id: item.id, output_index: 0, arguments: item.arguments });
  }
  events.push({ type: 'response.output_item.done', output_index: 0, item }, { type: 'response.completed', response: done });
  return ctx.sse(
    events.map((e, i) => ({ event: String(e.type), data: { ...e, sequence_number: i } })),
    { done: false },
  );
}
