/**
 * The strict catalogue's families: how each vendor (or the gateway in front of it) answers,
 * streams and refuses, as its documentation and its users' bug reports show it. One row per
 * family, read by the mock on every request; the exact 400s are built in
 * `family-errors.ts`, each with its source. docs/mock-gateway.md#the-strict-catalogue.
 */
export type MockFamilyName =
  | 'deepseek-thinking'
  | 'deepseek-chat'
  | 'deepseek-r1'
  | 'kimi-thinking'
  | 'kimi-instruct'
  | 'qwen3'
  | 'glm'
  | 'groq'
  | 'groq-instruct'
  | 'gemini-3'
  | 'openrouter-claude'
  | 'openrouter-gemini-3'
  | 'openrouter-openai'
  | 'litellm-claude'
  | 'new-api-claude'
  | 'openai-reasoning'
  | 'openai-no-tools'
  | 'openai-pro'
  | 'openai-codex'
  | 'openai-strict';

/** A parameter a family refuses (`'json_schema'`: `response_format` of that type). */
export type MockRefusedParam = 'max_tokens' | 'temperature' | 'top_p' | 'tools' | 'json_schema';

/** One family of the strict catalogue, as data. */
export interface MockFamily {
  /** The family's name, as a catalogue entry's `family` takes it. */
  name: MockFamilyName;
  /** What it stands for, in a line. */
  summary: string;
  /** Its ids in `strictModels`. Any catalogue entry can join a family with `family: name`. */
  ids: readonly string[];
  /** `owned_by` of its ids. */
  ownedBy: string;
  /**
   * Where a reply puts its reasoning: `'none'`; `'reasoning_content'` or `'reasoning'` (the text);
   * `'reasoning_details'` (OpenRouter: the text in `reasoning` and the blocks, signed, in
   * `reasoning_details`); `'thinking_blocks'` (LiteLLM: the text in `reasoning_content` and
   * Anthropic's signed blocks in `thinking_blocks`).
   */
  reasoning: 'none' | 'reasoning_content' | 'reasoning' | 'reasoning_details' | 'thinking_blocks';
  /** When it thinks: every request, or only with `thinking: { type: 'enabled' }` in the body (DeepSeek's deepseek-chat). */
  thinking: 'always' | 'when-requested';
  /**
   * What it demands of the reasoning sent back:
   * `'anything'`; `'required-on-tool-calls'` (every assistant turn with `tool_calls`, the whole
   * history, carries the text field, an empty string is fine); `'required-in-tool-loop'` (the
   * last assistant turn, when it called tools and no user message came after it, carries the
   * signed reasoning unmodified); `'rejected'` (no message may carry the text field);
   * `'lost-if-missing'` (no 400: a tool loop's turn without it loses the reasoning, reported in
   * the `x-mock-reasoning-lost` header); `'fails-in-tool-loop'` (the gateway cannot carry the
   * signature: the tool loop's next request is a 400 whatever the client sends).
   */
  sendBack: 'anything' | 'required-on-tool-calls' | 'required-in-tool-loop' | 'rejected' | 'lost-if-missing' | 'fails-in-tool-loop';
  /** Its tool calls carry `extra_content.google.thought_signature`, which the current turn's calls must bring back. */
  toolCallSignatures: boolean;
  /** Message fields it refuses: a list, or `'unknown'` for every field the OpenAI schema does not name. */
  refusedMessageFields: readonly string[] | 'unknown';
  /** Parameters it refuses (`temperature` and `top_p` only when not the default 1). */
  refusedParams: readonly MockRefusedParam[];
  /** `'responses-only'`: chat/completions refuses it; /v1/responses serves it. */
  endpoint: 'chat' | 'responses-only';
  /** How its streams differ: `toolCallIndex: false` sends each tool call whole, in one delta, without `index`. */
  stream: { toolCallIndex: boolean };
  /** The shape of its error bodies (see docs/mock-gateway.md#the-strict-catalogue). */
  errorShape: 'openai' | 'moonshot' | 'groq' | 'gemini-array' | 'openrouter' | 'litellm' | 'new-api';
  /** Where its rules and its errors' exact words come from. */
  sources: readonly string[];
}

const OPENAI_PLAIN = { toolCallSignatures: false, refusedMessageFields: [], refusedParams: [], endpoint: 'chat', stream: { toolCallIndex: true } } as const;

/** The families, in the order docs/chat.md lists them. */
export const strictFamilies: readonly MockFamily[] = [
  {
    ...OPENAI_PLAIN,
    name: 'deepseek-thinking',
    summary: "DeepSeek's thinking mode (V3.2, V4; deepseek-reasoner since V3.1)",
    ids: ['deepseek-reasoner', 'deepseek-v3.2', 'deepseek-v4-flash', 'deepseek-v4-pro'],
    ownedBy: 'deepseek',
    reasoning: 'reasoning_content',
    thinking: 'always',
    sendBack: 'required-on-tool-calls',
    errorShape: 'openai',
    sources: ['https://api-docs.deepseek.com/guides/thinking_mode', 'https://github.com/decolua/9router/issues/773', 'https://github.com/dirac-run/dirac/issues/5'],
  },
  {
    ...OPENAI_PLAIN,
    name: 'deepseek-chat',
    summary: "deepseek-chat: thinks only with thinking: { type: 'enabled' }, then as the thinking mode",
    ids: ['deepseek-chat'],
    ownedBy: 'deepseek',
    reasoning: 'reasoning_content',
    thinking: 'when-requested',
    sendBack: 'required-on-tool-calls',
    errorShape: 'openai',
    sources: ['https://api-docs.deepseek.com/guides/thinking_mode', 'https://github.com/decolua/9router/issues/773'],
  },
  {
    ...OPENAI_PLAIN,
    name: 'deepseek-r1',
    summary: 'DeepSeek-R1: reasoning sent back is refused, and so are tools',
    ids: ['deepseek-r1'],
    ownedBy: 'deepseek',
    reasoning: 'reasoning_content',
    thinking: 'always',
    sendBack: 'rejected',
    refusedParams: ['tools'],
    errorShape: 'openai',
    sources: ['https://api-docs.deepseek.com/guides/reasoning_model', 'https://github.com/Euyug/Mirai-Gpt-Plugin/issues/4', 'https://github.com/yym68686/ChatGPT-Telegram-Bot/issues/80'],
  },
  {
    ...OPENAI_PLAIN,
    name: 'kimi-thinking',
    summary: 'Kimi K2 thinking models (Moonshot): reasoning_content required on every tool-call turn',
    ids: ['kimi-k2-thinking', 'kimi-k2-thinking-turbo', 'kimi-k2.5', 'kimi-for-coding'],
    ownedBy: 'moonshotai',
    reasoning: 'reasoning_content',
    thinking: 'always',
    sendBack: 'required-on-tool-calls',
    errorShape: 'moonshot',
    sources: ['https://platform.moonshot.ai/docs/guide/use-kimi-k2-thinking-model', 'https://github.com/bytedance/deer-flow/issues/3043', 'https://github.com/labring/FastGPT/issues/6357'],
  },
  {
    ...OPENAI_PLAIN,
    name: 'kimi-instruct',
    summary: 'Kimi K2 instruct models: not thinking models, no reasoning',
    ids: ['kimi-k2-instruct', 'kimi-k2-0905-preview', 'kimi-k2-0711-preview'],
    ownedBy: 'moonshotai',
    reasoning: 'none',
    thinking: 'always',
    sendBack: 'anything',
    errorShape: 'moonshot',
    sources: ['https://platform.moonshot.ai/docs/guide/use-kimi-k2-thinking-model'],
  },
  {
    ...OPENAI_PLAIN,
    name: 'qwen3',
    summary: 'Qwen3 on DashScope: reasoning_content, wanted back in a tool loop, no 400 without it',
    ids: ['qwen3-max', 'qwen3.5-plus', 'qwen-plus', 'qwen-flash'],
    ownedBy: 'qwen',
    reasoning: 'reasoning_content',
    thinking: 'always',
    sendBack: 'lost-if-missing',
    errorShape: 'openai',
    sources: ['https://huggingface.co/blog/qwen-3-chat-template-deep-dive', 'https://github.com/QwenLM/Qwen3.8/issues/26'],
  },
  {
    ...OPENAI_PLAIN,
    name: 'glm',
    summary: 'GLM 4.5 and later (Z.ai): reasoning_content, to be preserved in a tool loop, no 400 without it',
    ids: ['glm-4.5', 'glm-4.6', 'glm-4.7', 'glm-5'],
    ownedBy: 'zai',
    reasoning: 'reasoning_content',
    thinking: 'always',
    sendBack: 'lost-if-missing',
    errorShape: 'openai',
    sources: ['https://docs.z.ai/guides/capabilities/thinking-mode'],
  },
  {
    ...OPENAI_PLAIN,
    name: 'groq',
    summary: "Groq's reasoning models: the field `reasoning`; `reasoning_content` in a message is refused",
    ids: ['qwen/qwen3-32b', 'openai/gpt-oss-120b', 'openai/gpt-oss-20b'],
    ownedBy: 'groq',
    reasoning: 'reasoning',
    thinking: 'always',
    sendBack: 'anything',
    refusedMessageFields: ['reasoning_content'],
    errorShape: 'groq',
    sources: ['https://github.com/janhq/jan/issues/8136', 'https://github.com/tashfeenahmed/freellmapi/issues/1070', 'https://github.com/musistudio/llms/pull/64'],
  },
  {
    ...OPENAI_PLAIN,
    name: 'groq-instruct',
    summary: 'Groq models that do not reason (kimi-k2-instruct there): `reasoning_content` in a message is refused',
    ids: ['moonshotai/kimi-k2-instruct-0905'],
    ownedBy: 'groq',
    reasoning: 'none',
    thinking: 'always',
    sendBack: 'anything',
    refusedMessageFields: ['reasoning_content'],
    errorShape: 'groq',
    sources: ['https://github.com/SimonSchubert/Kai/issues/265', 'https://github.com/musistudio/claude-code-router/pull/1204'],
  },
  {
    ...OPENAI_PLAIN,
    name: 'gemini-3',
    summary: "Gemini 3 on Google's OpenAI-compatible endpoint: thought signatures on tool calls, index-less tool-call deltas, errors as a JSON array",
    ids: ['gemini-3-pro-preview', 'gemini-3-flash-preview'],
    ownedBy: 'google',
    reasoning: 'none',
    thinking: 'always',
    sendBack: 'anything',
    toolCallSignatures: true,
    stream: { toolCallIndex: false },
    errorShape: 'gemini-array',
    sources: [
      'https://ai.google.dev/gemini-api/docs/thought-signatures',
      'https://ai.google.dev/gemini-api/docs/openai',
      'https://github.com/TokenRhythm/opensquilla/issues/225',
      'https://github.com/BigPizzaV3/CodexPlusPlus/issues/332',
    ],
  },
  {
    ...OPENAI_PLAIN,
    name: 'openrouter-claude',
    summary: 'Claude with reasoning through OpenRouter: reasoning_details (signed reasoning.text) back unmodified in a tool loop',
    ids: ['anthropic/claude-sonnet-4.5', 'anthropic/claude-opus-4.5'],
    ownedBy: 'openrouter',
    reasoning: 'reasoning_details',
    thinking: 'always',
    sendBack: 'required-in-tool-loop',
    errorShape: 'openrouter',
    sources: [
      'https://openrouter.ai/docs/guides/best-practices/reasoning-tokens#preserving-reasoning-blocks',
      'https://github.com/anomalyco/opencode/issues/14716',
      'https://github.com/hotovo/aider-desk/issues/513',
    ],
  },
  {
    ...OPENAI_PLAIN,
    name: 'openrouter-gemini-3',
    summary: 'Gemini 3 through OpenRouter: reasoning_details (reasoning.encrypted per tool call) back unmodified in a tool loop',
    ids: ['google/gemini-3-pro-preview', 'google/gemini-3-flash-preview'],
    ownedBy: 'openrouter',
    reasoning: 'reasoning_details',
    thinking: 'always',
    sendBack: 'required-in-tool-loop',
    errorShape: 'openrouter',
    sources: ['https://openrouter.ai/docs/guides/best-practices/reasoning-tokens#preserving-reasoning-blocks', 'https://github.com/LibreChat-AI/agents/issues/37', 'https://github.com/microsoft/agent-framework/issues/2947'],
  },
  {
    ...OPENAI_PLAIN,
    name: 'openrouter-openai',
    summary: 'OpenAI reasoning models through OpenRouter: reasoning_details with a reasoning.summary and a reasoning.encrypted entry; nothing required back',
    ids: ['openai/gpt-5', 'openai/o4-mini'],
    ownedBy: 'openrouter',
    reasoning: 'reasoning_details',
    thinking: 'always',
    sendBack: 'anything',
    errorShape: 'openrouter',
    sources: ['https://openrouter.ai/docs/guides/best-practices/reasoning-tokens#preserving-reasoning-blocks', 'https://app.unpkg.com/@openrouter/ai-sdk-provider@0.7.2/files/dist/internal/index.mjs.map'],
  },
  {
    ...OPENAI_PLAIN,
    name: 'litellm-claude',
    summary: "Claude with thinking through a LiteLLM proxy: thinking_blocks (Anthropic's, signed) back in a tool loop",
    ids: ['litellm/claude-sonnet-4-5', 'litellm/claude-opus-4-5'],
    ownedBy: 'litellm',
    reasoning: 'thinking_blocks',
    thinking: 'always',
    sendBack: 'required-in-tool-loop',
    errorShape: 'litellm',
    sources: ['https://docs.litellm.ai/docs/reasoning_content', 'https://github.com/BerriAI/litellm/issues/15601', 'https://github.com/egoist/chatwise-releases/issues/364'],
  },
  {
    ...OPENAI_PLAIN,
    name: 'new-api-claude',
    summary: 'Claude with thinking relayed by new-api in OpenAI format: reasoning_content only, the signature dropped; a tool loop fails whatever is sent',
    ids: ['claude-sonnet-4-5-20250929-thinking', 'claude-3-7-sonnet-20250219-thinking'],
    ownedBy: 'new-api',
    reasoning: 'reasoning_content',
    thinking: 'always',
    sendBack: 'fails-in-tool-loop',
    errorShape: 'new-api',
    sources: ['https://github.com/sigoden/aichat/issues/1233', 'https://docs.claude.com/en/docs/build-with-claude/extended-thinking'],
  },
  {
    ...OPENAI_PLAIN,
    name: 'openai-reasoning',
    summary: 'The gpt-5 family and o-series: max_tokens refused (max_completion_tokens), temperature and top_p only at their default',
    ids: ['gpt-5', 'gpt-5-mini', 'gpt-5.1', 'o1', 'o3', 'o3-mini', 'o4-mini'],
    ownedBy: 'openai',
    reasoning: 'none',
    thinking: 'always',
    sendBack: 'anything',
    refusedParams: ['max_tokens', 'temperature', 'top_p'],
    errorShape: 'openai',
    sources: [
      'https://platform.openai.com/docs/guides/reasoning',
      'https://github.com/fish2018/YPrompt/issues/26',
      'https://github.com/gabrii/Cursor-Azure-GPT-5/issues/33',
      'https://github.com/lobehub/lobehub/pull/7747',
    ],
  },
  {
    ...OPENAI_PLAIN,
    name: 'openai-no-tools',
    summary: 'o1-mini: an o-series model without tools (a 404)',
    ids: ['o1-mini'],
    ownedBy: 'openai',
    reasoning: 'none',
    thinking: 'always',
    sendBack: 'anything',
    refusedParams: ['tools', 'max_tokens', 'temperature', 'top_p'],
    errorShape: 'openai',
    sources: ['https://github.com/UKGovernmentBEIS/inspect_ai/pull/1290', 'https://github.com/aaif-goose/goose/pull/921'],
  },
  {
    ...OPENAI_PLAIN,
    name: 'openai-pro',
    summary: 'o1-pro, o3-pro: only on /v1/responses (chat/completions answers 404 "not a chat model")',
    ids: ['o1-pro', 'o3-pro'],
    ownedBy: 'openai',
    reasoning: 'none',
    thinking: 'always',
    sendBack: 'anything',
    endpoint: 'responses-only',
    errorShape: 'openai',
    sources: ['https://platform.openai.com/docs/models/o1-pro', 'https://github.com/chatboxai/chatbox/issues/2173', 'https://github.com/aaif-goose/goose/issues/2564'],
  },
  {
    ...OPENAI_PLAIN,
    name: 'openai-codex',
    summary: 'Codex models: only on /v1/responses (chat/completions answers 404 "only supported in v1/responses")',
    ids: ['codex-mini-latest', 'gpt-5-codex', 'gpt-5.1-codex'],
    ownedBy: 'openai',
    reasoning: 'none',
    thinking: 'always',
    sendBack: 'anything',
    endpoint: 'responses-only',
    errorShape: 'openai',
    sources: ['https://cookbook.openai.com/examples/gpt-5-codex_prompting_guide', 'https://github.com/alvinunreal/tmuxai/issues/82', 'https://github.com/aaif-goose/goose/issues/2564'],
  },
  {
    ...OPENAI_PLAIN,
    name: 'openai-strict',
    summary: 'Older OpenAI chat models on a strict host: unknown message fields (a pushed `parsed`) refused, no json_schema',
    ids: ['gpt-4', 'gpt-4-32k', 'gpt-3.5-turbo'],
    ownedBy: 'openai',
    reasoning: 'none',
    thinking: 'always',
    sendBack: 'anything',
    refusedMessageFields: 'unknown',
    refusedParams: ['json_schema'],
    errorShape: 'openai',
    sources: ['https://github.com/openai/openai-node/issues/1161', 'https://github.com/web-infra-dev/midscene/issues/259', 'https://platform.openai.com/docs/guides/structured-outputs'],
  },
];

/** The family of a catalogue entry, if it has one. */
export const familyOf = (model: { family?: MockFamilyName | undefined } | undefined): MockFamily | undefined =>
  model?.family === undefined ? undefined : strictFamilies.find((f) => f.name === model.family);
