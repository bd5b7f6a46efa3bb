import type { Part } from './answer.js';
import { isRecord, str } from './values.js';

// Prompts as the conventions' `gen_ai.input.messages` and `gen_ai.system_instructions`
// (recorded only with captureContent: true): chat messages, a text prompt, or the
// responses endpoint's input and instructions.

interface InputMessage {
  role: string;
  parts: Part[];
}


/** Parts of a message's content: a string, or an array of text / image / audio parts. */
function contentParts(content: unknown): Part[] {
  if (typeof content === 'string') return [{ type: 'text', content }];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part): Part[] => {
    if (!isRecord(part)) return [];
    const text = str(part.text);
    if (text !== undefined) return [{ type: 'text', content: text }];
    const image = isRecord(part.image_url) ? str(part.image_url.url) : str(part.image_url);
    // A data: URL is the image itself: its size, not its bytes.
    if (image !== undefined) return [image.startsWith('data:') ? { type: 'image', size: image.length } : { type: 'uri', modality: 'image', uri: image }];
    return [{ type: str(part.type) ?? 'unknown' }];
  });
}

function toolCalls(calls: unknown): Part[] {
  if (!Array.isArray(calls)) return [];
  return calls.flatMap((call): Part[] => {
    if (!isRecord(call)) return [];
    const fn = isRecord(call.function) ? call.function : {};
    let args: unknown = fn.arguments;
    try {
      if (typeof args === 'string') args = JSON.parse(args) as unknown;
    } catch {
      // Kept as sent.
    }
    return [{ type: 'tool_call', id: str(call.id), name: str(fn.name), arguments: args }];
  });
}

/** One chat message (or responses input item) in the conventions' shape. */
function inputMessage(message: unknown): InputMessage | undefined {
  if (!isRecord(message)) return undefined;
  const role = str(message.role) ?? 'user';
  if (role === 'tool') return { role, parts: [{ type: 'tool_call_response', id: str(message.tool_call_id), response: message.content }] };
  if (message.type === 'function_call_output') return { role: 'tool', parts: [{ type: 'tool_call_response', id: str(message.call_id), response: message.output }] };
  return { role: role === 'developer' ? 'system' : role, parts: [...contentParts(message.content), ...toolCalls(message.tool_calls)] };
}

/** The prompt of a request body, and any instructions given apart from it. */
export function inputOf(body: Record<string, unknown>): { messages: InputMessage[]; instructions?: Part[] | undefined } {
  if (Array.isArray(body.messages)) return { messages: body.messages.flatMap((m) => inputMessage(m) ?? []) };
  const instructions = typeof body.instructions === 'string' ? [{ type: 'text', content: body.instructions }] : undefined;
  if (typeof body.input === 'string') return { messages: [{ role: 'user', parts: [{ type: 'text', content: body.input }] }], instructions };
  if (Array.isArray(body.input) && body.input.some(isRecord)) return { messages: body.input.flatMap((m) => inputMessage(m) ?? []), instructions };
  const prompt = typeof body.prompt === 'string' ? [body.prompt] : Array.isArray(body.prompt) ? body.prompt.filter((p): p is string => typeof p === 'string') : [];
  return { messages: prompt.map((p) => ({ role: 'user', parts: [{ type: 'text', content: p }] })), instructions };
}
