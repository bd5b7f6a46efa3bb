// Tool calling: the model asks for a function, we run it and send the result back.
import { Gateway, type ChatCompletionMessageParam, type ChatCompletionTool } from 'unified-gateway';

const client = new Gateway();
const model = process.env.GATEWAY_CHAT_MODEL ?? 'gpt-4o-mini';

const tools: ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];

function getWeather(city: string): string {
  return `18°C and clear in ${city}`;
}

const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Lisbon?' }];
const first = await client.chat.completions.create({ model, messages, tools });
const reply = first.choices[0]?.message;

for (const call of reply?.tool_calls ?? []) {
  const args = JSON.parse(call.function.arguments) as { city?: string };
  console.log(`model called ${call.function.name}(${call.function.arguments})`);
  messages.push({ role: 'assistant', content: reply?.content ?? null, tool_calls: reply?.tool_calls });
  messages.push({ role: 'tool', tool_call_id: call.id, content: getWeather(args.city ?? 'Lisbon') });
}

const second = await client.chat.completions.create({ model, messages, tools });
console.log(second.choices[0]?.message.content);
