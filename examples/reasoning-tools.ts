// A reasoning model's tool loop: runTools sends DeepSeek's reasoning back where its thinking mode demands it (reasoningRules can change the rule),
// and a loop of your own does the same by pushing each reply back as it came.
import { BadRequestError, Gateway, defineTool, reasoningText, type ChatCompletionMessageParam } from 'unified-gateway';
import { z } from 'zod';

const client = new Gateway();
// The mock gateway's deepseek-reasoner checks what comes back as DeepSeek's thinking mode does.
const model = process.env.GATEWAY_REASONING_MODEL ?? 'deepseek-reasoner';

const getRate = defineTool({
  name: 'get_exchange_rate',
  description: 'The exchange rate between two currencies',
  parameters: z.object({ from: z.string(), to: z.string() }),
  run: ({ from, to }) => ({ from, to, rate: 1.08 }),
});
const body = { model, messages: [{ role: 'user' as const, content: 'How many dollars is 250 euros?' }], tools: [getRate] };

const { completion, messages } = await client.chat.completions.runTools(body, {
  maxTurns: 5,
  onStep: ({ turn, completion: step, toolResults }) => {
    // Whichever field the vendor used (reasoning_content, reasoning, reasoning_details, thinking_blocks).
    const thought = reasoningText(step.choices[0]?.message) ?? '(none)';
    console.log(`turn ${turn}: thought "${thought}"; ${toolResults.length ? `called ${toolResults.map((r) => r.name).join(', ')}` : 'answered'}`);
  },
});
console.log(completion.choices[0]?.message.content);
const carried = messages.filter((m) => m.role === 'assistant' && typeof m.reasoning_content === 'string').length;
console.log(`${carried} assistant turns went back with their reasoning_content`);

// The same loop with the reasoning left out, as a loop that keeps only content and tool calls
// would do: the thinking mode refuses the second request.
const careless = client.withOptions({ reasoningRules: { [model]: { send: 'never' } } });
try {
  await careless.chat.completions.runTools(body);
  console.log('without its reasoning, the loop still ran (this model does not demand it back)');
} catch (err) {
  if (!(err instanceof BadRequestError)) throw err;
  console.log(`without its reasoning: ${err.message}`);
}

// A loop of your own: push the reply's message back as it is. It carries the fields its vendor
// wants back; what parse() added (parsed, parsed_arguments) is left out of the request.
const history: ChatCompletionMessageParam[] = [...body.messages];
for (let turn = 1; turn <= 5; turn++) {
  const message = (await client.chat.completions.parse({ ...body, messages: history })).choices[0]?.message;
  if (!message?.tool_calls?.length) {
    console.log(`own loop, turn ${turn}: ${message?.content}`);
    break;
  }
  history.push(message);
  for (const call of message.tool_calls) history.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify({ ...call.function.parsed_arguments, rate: 1.08 }) });
}
