import { describe, expect, it } from 'vitest';
import { Gateway, ValidationError, type GatewayOptions, type ReasoningRule } from '../../../src/index.js';
import { answeringModel, prepareAssistantTurn, reasoningRuleFor } from '../../../src/resources/chat/completions/reasoning.js';
import type { ChatCompletionMessageToolCall } from '../../../src/resources/chat/completions/types.js';

// The table of docs/chat.md#reasoning-models as a pure function of the model id, and the
// client's `reasoningRules` over it.

const always = { send: 'always', field: 'reasoning_content' } as const;
const toolCalls = { send: 'tool-calls', field: 'reasoning_content' } as const;
const never = { send: 'never', field: 'reasoning_content' } as const;

describe('reasoningRuleFor: the built-in table', () => {
  it.each([
    // DeepSeek: thinking mode (V3.1+, V4, the deepseek-reasoner and deepseek-chat aliases) wants it back; R1 refuses it.
    ['deepseek-reasoner', always],
    ['deepseek-chat', always],
    ['deepseek-v3.2', always],
    ['deepseek-v3.1-terminus', always],
    ['deepseek-v4-pro', always],
    ['deepseek-flash', always],
    ['deepseek/deepseek-v3.2-exp', always],
    ['deepseek-ai/DeepSeek-V3.1', always],
    ['deepseek-r1', never],
    ['deepseek-r1-0528', never],
    ['deepseek-ai/DeepSeek-R1', never],
    ['deepseek-r1-distill-qwen-32b', never],
    ['deepseek-v3', never],
    ['deepseek-v3-0324', never],
    // Qwen: Qwen3's template keeps the reasoning of the turns in a tool loop; QwQ none.
    ['qwen3-235b-a22b-thinking-2507', toolCalls],
    ['Qwen/Qwen3-32B', toolCalls],
    ['qwen3.6-plus', toolCalls],
    ['qwen-plus', toolCalls],
    ['qwq-32b', never],
    ['qwen2.5-72b-instruct', never],
    // Kimi, MiMo: required on tool-call turns.
    ['kimi-k2-thinking', toolCalls],
    ['kimi-k2.6', toolCalls],
    // REALITIES.md: the K2 instruct models and previews do not think; kimi-for-coding does.
    ['kimi-for-coding', toolCalls],
    ['kimi-thinking-preview', toolCalls],
    ['kimi-k2-instruct', never],
    ['moonshotai/kimi-k2-instruct', never],
    ['kimi-k2-0905-preview', never],
    ['moonshotai/Kimi-K2-Thinking', toolCalls],
    ['mimo-v2.5-pro', toolCalls],
    // GLM: interleaved thinking since 4.5, preserved thinking since 4.7.
    ['glm-4.5', toolCalls],
    ['zai-org/GLM-4.6', toolCalls],
    ['glm-4.7', always],
    ['glm-5.1', always],
    // Signed or hidden reasoning: the text is never sent back.
    ['claude-3-7-sonnet-20250219', never],
    ['anthropic/claude-sonnet-4.5', never],
    ['gemini-2.5-pro', never],
    ['gemini-3-pro-preview', never],
    ['o3-mini', never],
    ['o4-mini', never],
    ['gpt-5', never],
    ['gpt-4o-mini', never],
    ['gpt-oss-120b', never],
    // Unknown: never (an OpenAI-style endpoint refuses fields it does not know).
    ['my-private-model', never],
    ['', never],
  ])('%s → %o', (model, rule) => {
    expect(reasoningRuleFor(model)).toEqual(rule);
  });
});

describe('reasoningRuleFor: the client’s rules first', () => {
  const rules = {
    'deepseek-reasoner': { send: 'never', field: 'reasoning_content' },
    'my-*': { send: 'tool-calls', field: 'reasoning' },
    'my-deep-*': { send: 'always', field: 'reasoning_content' },
    '*': { send: 'tool-calls', field: 'reasoning_content' },
  } as const;

  it('takes an exact id over any prefix, and the longest prefix over shorter ones', () => {
    expect(reasoningRuleFor('deepseek-reasoner', rules)).toEqual(never);
    expect(reasoningRuleFor('my-model', rules)).toEqual({ send: 'tool-calls', field: 'reasoning' });
    expect(reasoningRuleFor('my-deep-thinker', rules)).toEqual(always);
    // '*' covers what nothing more specific does, the built-in table included (0.4 let it override the table).
    expect(reasoningRuleFor('gpt-4o', rules)).toEqual(never);
    expect(reasoningRuleFor('acme-model', rules)).toEqual(toolCalls);
  });

  it('falls back to the table when no rule matches, and matches ids exactly (case included)', () => {
    expect(reasoningRuleFor('glm-4.7', { 'GLM-4.7': never })).toEqual(always);
    expect(reasoningRuleFor('deepseek-r1', { 'deepseek-r1-*': always })).toEqual(never);
  });
});

const call: ChatCompletionMessageToolCall = { id: 'call_1', type: 'function', function: { name: 'add', arguments: '{}' } };

describe('prepareAssistantTurn', () => {
  const withCalls = { content: null, tool_calls: [call], reasoning_content: 'Add them.' };
  const plain = { content: 'Four.', reasoning_content: 'Done.' };

  it.each([
    ['never, tool calls', withCalls, never, { role: 'assistant', content: null, tool_calls: [call] }],
    ['never, plain', plain, never, { role: 'assistant', content: 'Four.' }],
    ['tool-calls, tool calls', withCalls, toolCalls, { role: 'assistant', content: null, tool_calls: [call], reasoning_content: 'Add them.' }],
    ['tool-calls, plain', plain, toolCalls, { role: 'assistant', content: 'Four.' }],
    ['tool-calls, no reasoning given', { content: null, tool_calls: [call] }, toolCalls, { role: 'assistant', content: null, tool_calls: [call], reasoning_content: '' }],
    ['always, plain', plain, always, { role: 'assistant', content: 'Four.', reasoning_content: 'Done.' }],
    // The one field added: only on a tool-call turn, and only when the reply carried no reasoning at all.
    ['always, plain, no reasoning given', { content: 'Four.' }, always, { role: 'assistant', content: 'Four.' }],
    ['always, tool calls, no reasoning given', { content: null, tool_calls: [call] }, always, { role: 'assistant', content: null, tool_calls: [call], reasoning_content: '' }],
    ['always, tool calls, reasoning_content: null', { content: null, tool_calls: [call], reasoning_content: null }, always, { role: 'assistant', content: null, tool_calls: [call], reasoning_content: '' }],
    ['the field reasoning', { content: null, tool_calls: [call], reasoning: 'Add them.' }, { send: 'always', field: 'reasoning' }, { role: 'assistant', content: null, tool_calls: [call], reasoning: 'Add them.' }],
    ['the field reasoning, a reply in reasoning_content: not renamed', withCalls, { send: 'always', field: 'reasoning' }, { role: 'assistant', content: null, tool_calls: [call] }],
    // Groq answers 400 to reasoning_content ("property 'reasoning_content' is unsupported"): a reply in `reasoning` never gains it.
    ['a reply in reasoning (Groq) never gains reasoning_content', { content: null, tool_calls: [call], reasoning: 'Add.' }, toolCalls, { role: 'assistant', content: null, tool_calls: [call] }],
    ['both text fields: only the rule’s goes back', { content: null, tool_calls: [call], reasoning_content: 'A.', reasoning: 'A.' }, toolCalls, { role: 'assistant', content: null, tool_calls: [call], reasoning_content: 'A.' }],
    ['an empty tool_calls is no tool call', { content: 'x', tool_calls: [], reasoning_content: 'r' }, toolCalls, { role: 'assistant', content: 'x' }],
  ] as const)('%s', (_name, message, rule, expected) => {
    expect(prepareAssistantTurn(message, rule)).toEqual(expected);
  });

  it('sends reasoning_details and thinking_blocks back unchanged whatever the rule (OpenRouter, LiteLLM), with no text field added', () => {
    const reasoning_details = [
      { type: 'reasoning.text', text: 'Add them.', signature: 'sig==', id: null, format: 'anthropic-claude-v1', index: 0 },
      { type: 'reasoning.encrypted', data: 'opaque', id: 'rs_1', format: 'openai-responses-v1', index: 1 },
    ] as const;
    const thinking_blocks = [{ type: 'thinking', thinking: 'Add them.', signature: 'sig==' }, { type: 'redacted_thinking', data: 'xyz' }] as const;
    const openRouter = { content: null, tool_calls: [call], reasoning_details: [...reasoning_details] };
    expect(prepareAssistantTurn(openRouter, never)).toEqual({ role: 'assistant', content: null, tool_calls: [call], reasoning_details });
    expect(prepareAssistantTurn(openRouter, toolCalls)).toEqual({ role: 'assistant', content: null, tool_calls: [call], reasoning_details });
    const liteLLM = { content: null, tool_calls: [call], reasoning_content: 'Add them.', thinking_blocks: [...thinking_blocks] };
    expect(prepareAssistantTurn(liteLLM, never)).toEqual({ role: 'assistant', content: null, tool_calls: [call], thinking_blocks });
  });

  it('keeps a tool call’s extra_content (Gemini’s thought signature) as it came', () => {
    const gemini = { ...call, extra_content: { google: { thought_signature: 'c2ln' } } };
    expect(prepareAssistantTurn({ content: null, tool_calls: [gemini] }, never).tool_calls).toEqual([gemini]);
  });

  it('keeps only the fields every endpoint takes: a reply’s refusal, annotations or vendor fields do not go back', () => {
    const reply = { role: 'assistant', content: 'Hi.', refusal: null, annotations: [], reasoning: 'r', reasoning_content: 'r', audio: null, name: 'bot' };
    expect(prepareAssistantTurn(reply, never)).toEqual({ role: 'assistant', content: 'Hi.', name: 'bot' });
  });
});

describe('prepareAssistantTurn: a turn another model wrote (issue 31)', () => {
  const gemini = { ...call, extra_content: { google: { thought_signature: 'c2ln' } } };
  const foreign = {
    content: null,
    tool_calls: [gemini],
    reasoning_content: 'Mine.',
    reasoning: 'Mine.',
    reasoning_details: [{ type: 'reasoning.text' as const, text: 'Mine.' }],
    thinking_blocks: [{ type: 'thinking' as const, thinking: 'Mine.', signature: 's' }],
  };

  it('sends none of the writer’s vendor fields, and the rule applies as to a turn without reasoning', () => {
    expect(prepareAssistantTurn(foreign, never, false)).toEqual({ role: 'assistant', content: null, tool_calls: [call] });
    // DeepSeek's thinking mode and Kimi answer 400 to a tool-call turn without the field: it goes empty.
    expect(prepareAssistantTurn(foreign, reasoningRuleFor('deepseek-reasoner'), false)).toEqual({ role: 'assistant', content: null, tool_calls: [call], reasoning_content: '' });
    expect(prepareAssistantTurn(foreign, reasoningRuleFor('kimi-k2-thinking'), false)).toEqual({ role: 'assistant', content: null, tool_calls: [call], reasoning_content: '' });
    expect(prepareAssistantTurn({ content: 'Hi.', reasoning_content: 'Mine.' }, always, false)).toEqual({ role: 'assistant', content: 'Hi.' });
  });

  it('adds no empty field for Qwen3 or GLM, which only lose reasoning without it (Groq refuses reasoning_content)', () => {
    for (const model of ['qwen/qwen3-32b', 'qwen-plus', 'glm-4.6', 'glm-5']) {
      expect(prepareAssistantTurn({ content: null, tool_calls: [call] }, reasoningRuleFor(model))).toEqual({ role: 'assistant', content: null, tool_calls: [call] });
      expect(prepareAssistantTurn(foreign, reasoningRuleFor(model), false)).toEqual({ role: 'assistant', content: null, tool_calls: [call] });
      // Its own reasoning still goes back.
      expect(prepareAssistantTurn({ content: null, tool_calls: [call], reasoning_content: 'r' }, reasoningRuleFor(model))).toMatchObject({ reasoning_content: 'r' });
    }
    // A rule of the client's own fills, as documented, whatever the model.
    expect(prepareAssistantTurn({ content: null, tool_calls: [call] }, reasoningRuleFor('qwen3-32b', { 'qwen3-*': { send: 'tool-calls', field: 'reasoning_content' } }))).toMatchObject({ reasoning_content: '' });
  });
});

describe('answeringModel: which model wrote a reply', () => {
  it.each([
    ['no fallbacks: the requested model, however the reply spells it', 'my-alias', [], 'gpt-4o-2024-08-06', 'my-alias'],
    ['the requested id', 'gpt-4', ['deepseek-reasoner'], 'gpt-4', 'gpt-4'],
    ['a fallback id', 'gpt-4', ['deepseek-reasoner'], 'deepseek-reasoner', 'deepseek-reasoner'],
    ['a dated suffix', 'gpt-4', ['deepseek-reasoner'], 'gpt-4-0613', 'gpt-4'],
    ['the longest prefix', 'gpt-4', ['gpt-4-turbo'], 'gpt-4-turbo-2024-04-09', 'gpt-4-turbo'],
    ['the last path segment, any case', 'deepseek-ai/DeepSeek-V3.1', ['qwen/qwen3-32b'], 'deepseek-v3.1', 'deepseek-ai/DeepSeek-V3.1'],
    ['a host’s own spelling, by family', 'anthropic/claude-sonnet-4.5', ['openai/gpt-5'], 'anthropic/claude-4.5-sonnet-20250929', 'anthropic/claude-sonnet-4.5'],
    ['unknown: nobody', 'gpt-4', ['deepseek-reasoner'], 'something-else', undefined],
    ['no model in the reply: nobody', 'gpt-4', ['deepseek-reasoner'], undefined, undefined],
    ['the requested model listed as its own fallback is no fallback', 'gpt-4', ['gpt-4'], 'x', 'gpt-4'],
  ] as const)('%s', (_name, requested, fallbacks, answered, expected) => {
    expect(answeringModel(requested, fallbacks, answered)).toBe(expected);
  });
});

describe('the reasoningRules option', () => {
  const make = (reasoningRules: unknown) => () => new Gateway({ apiKey: 'k', baseURL: 'http://mock.local/v1', reasoningRules } as GatewayOptions);

  it.each([
    ['not an object', 'deepseek', 'reasoningRules'],
    ['an array', [], 'reasoningRules'],
    ['null', null, 'reasoningRules'],
    ['a rule that is not an object', { m: 'never' }, 'reasoningRules.m'],
    ['a rule that is null', { m: null }, 'reasoningRules.m'],
    ['a misspelt rule option', { m: { send: 'always', feild: 'reasoning' } }, 'reasoningRules.m.feild'],
    ['an unknown send', { m: { send: 'sometimes' } }, 'reasoningRules.m.send'],
    ['an unknown field', { m: { send: 'always', field: 'thoughts' } }, 'reasoningRules.m.field'],
    ['an empty id', { '': { send: 'never' } }, 'reasoningRules.'],
    ['a star inside the id', { 'deep*seek': { send: 'never' } }, 'reasoningRules.deep*seek'],
  ])('refuses %s at construction with ValidationError', (_name, value, field) => {
    expect(make(value)).toThrow(ValidationError);
    try {
      make(value)();
    } catch (err) {
      expect(err).toMatchObject({ field });
    }
  });

  it('is resolved into the client: a rule without a field sends reasoning_content, and the client’s rules come first', async () => {
    const rules: Record<string, ReasoningRule> = { 'deepseek-reasoner': { send: 'never' }, 'proxy-*': { send: 'tool-calls', field: 'reasoning' } };
    const client = new Gateway({ apiKey: 'k', baseURL: 'http://mock.local/v1', reasoningRules: rules });
    const ruleOf = (gateway: Gateway, model: string) => reasoningRuleFor(model, gateway.chat.completions._reasoningRules());
    expect(ruleOf(client, 'deepseek-reasoner')).toEqual(never);
    expect(ruleOf(client, 'proxy-deepseek')).toEqual({ send: 'tool-calls', field: 'reasoning' });
    expect(ruleOf(client, 'glm-5')).toEqual(always);
    expect(ruleOf(new Gateway({ apiKey: 'k', baseURL: 'http://mock.local/v1' }), 'deepseek-reasoner')).toEqual(always);
  });

  it('is kept by withOptions', async () => {
    const client = new Gateway({ apiKey: 'k', baseURL: 'http://mock.local/v1', reasoningRules: { 'x-*': { send: 'always' } } }).withOptions({ timeout: 5_000 });
    expect(reasoningRuleFor('x-1', client.chat.completions._reasoningRules())).toEqual(always);
  });
});
