import type { LanguageModelV3DataContent, LanguageModelV3FilePart, LanguageModelV3Prompt, LanguageModelV3ToolResultOutput, SharedV3ProviderOptions } from '@ai-sdk/provider';
import { ValidationError, type ChatCompletionContentPart, type ChatCompletionMessageParam, type ChatCompletionMessageToolCall } from '../index.js';
import { prepareAssistantTurn, type ResolvedReasoningRule } from '../resources/chat/completions/reasoning.js';
import { extraContentOf, reasoningFieldsOf, toBase64, writerOf } from './shared.js';

/**
 * The AI SDK's prompt as chat messages. Parts the chat endpoint cannot carry (a PDF, a
 * video) fail here, before anything is sent, as the client's own arguments do. An assistant
 * turn's reasoning parts go back in the fields they came in (their provider metadata says
 * which), where the model's `rule` says (the table of docs/chat.md#reasoning-models), as
 * runTools sends them, and to the model that wrote them only: a turn another model wrote (the
 * conversation moved to `modelId`, by `prepareStep` or the app, or a fallback answered it)
 * goes without them, its parts' metadata naming the writer.
 */
export function convertPrompt(prompt: LanguageModelV3Prompt, rule: ResolvedReasoningRule, modelId: string): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  prompt.forEach((message, i) => {
    switch (message.role) {
      case 'system':
        messages.push({ role: 'system', content: message.content });
        break;
      case 'user': {
        const parts = message.content.map((part, j): ChatCompletionContentPart => (part.type === 'text' ? { type: 'text', text: part.text } : filePart(part, `prompt[${i}].content[${j}]`)));
        const only = parts[0];
        messages.push({ role: 'user', content: parts.length === 1 && only?.type === 'text' ? only.text : parts });
        break;
      }
      case 'assistant': {
        let text = '';
        // Joined with nothing: the parts are the pieces of the one reasoning the model sent.
        const reasoning: Array<{ text: string; providerOptions?: SharedV3ProviderOptions | undefined }> = [];
        const toolCalls: ChatCompletionMessageToolCall[] = [];
        let own = true;
        for (const part of message.content) {
          if (part.type === 'reasoning' || part.type === 'tool-call') {
            const writer = writerOf(part.providerOptions);
            if (writer !== undefined && writer !== modelId) own = false;
          }
          if (part.type === 'text') text += part.text;
          else if (part.type === 'reasoning') reasoning.push(part);
          else if (part.type === 'tool-call' && !part.providerExecuted) {
            const extra = extraContentOf(part.providerOptions);
            toolCalls.push({ id: part.toolCallId, type: 'function', function: { name: part.toolName, arguments: JSON.stringify(part.input ?? {}) }, ...(extra ? { extra_content: extra } : {}) });
          }
        }
        messages.push(prepareAssistantTurn({ content: text || (toolCalls.length ? null : ''), tool_calls: toolCalls, ...reasoningFieldsOf(reasoning) }, rule, own));
        break;
      }
      case 'tool':
        for (const part of message.content) {
          if (part.type === 'tool-result') messages.push({ role: 'tool', tool_call_id: part.toolCallId, content: toolOutputText(part.output) });
        }
        break;
    }
  });
  return messages;
}

function filePart(part: LanguageModelV3FilePart, field: string): ChatCompletionContentPart {
  const type = part.mediaType.toLowerCase();
  // ai 7 says only `image` when the caller gave no media type.
  if (type === 'image' || type.startsWith('image/')) {
    return { type: 'image_url', image_url: { url: dataURL(part.data, type === 'image' || type === 'image/*' ? sniffImageType(part.data) : type) } };
  }
  const format = type === 'audio/wav' || type === 'audio/x-wav' ? 'wav' : type === 'audio/mpeg' || type === 'audio/mp3' ? 'mp3' : undefined;
  if (format) {
    if (part.data instanceof URL) throw new ValidationError(field, 'must be audio bytes, not a URL: the chat endpoint takes audio inline');
    return { type: 'input_audio', input_audio: { data: toBase64(part.data), format } };
  }
  throw new ValidationError(`${field}.mediaType`, `must be an image or wav/mp3 audio: the chat endpoint does not take ${part.mediaType}`);
}

/** The media type of image bytes from their signature; JPEG when unknown. */
function sniffImageType(data: LanguageModelV3DataContent): string {
  if (data instanceof URL || (typeof data === 'string' && /^(https?|data):/i.test(data))) return 'image/jpeg';
  const head = typeof data === 'string' ? data.slice(0, 16) : toBase64(data.subarray(0, 12));
  if (head.startsWith('iVBORw0KGgo')) return 'image/png';
  if (head.startsWith('R0lGOD')) return 'image/gif';
  if (head.startsWith('UklGR')) return 'image/webp';
  return 'image/jpeg';
}

function dataURL(data: LanguageModelV3DataContent, mediaType: string): string {
  if (data instanceof URL) return data.toString();
  if (typeof data === 'string' && /^(https?|data):/i.test(data)) return data;
  return `data:${mediaType};base64,${toBase64(data)}`;
}

function toolOutputText(output: LanguageModelV3ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value);
    case 'execution-denied':
      return output.reason ?? 'The tool call was denied.';
    case 'content':
      return JSON.stringify(output.value.map((item) => (item.type === 'text' ? { type: 'text', text: item.text } : item)));
  }
}
