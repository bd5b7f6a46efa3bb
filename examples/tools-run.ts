// Tool runs: defineTool with zod schemas, and runTools() looping until the model answers (onStep shows each turn).
import { Gateway, defineTool } from 'unified-gateway';
import { z } from 'zod';

const client = new Gateway();
const model = process.env.GATEWAY_CHAT_MODEL ?? 'gpt-4o-mini';

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string(), unit: z.enum(['celsius', 'fahrenheit']) }),
  run: async ({ city, unit }) => ({ city, temperature: unit === 'celsius' ? 18 : 64, unit, sky: 'clear' }),
});
const getLocalTime = defineTool({
  name: 'get_local_time',
  description: 'Current local time in a city',
  parameters: z.object({ city: z.string() }),
  run: ({ city }) => `It is 14:05 in ${city}.`,
});

const { completion, messages } = await client.chat.completions.runTools(
  { model, messages: [{ role: 'user', content: 'What is the weather and the local time in Lisbon?' }], tools: [getWeather, getLocalTime] },
  {
    maxTurns: 5,
    onStep: ({ turn, toolResults }) => {
      for (const r of toolResults) console.log(`turn ${turn}: ${r.name}(${JSON.stringify(r.args)}) -> ${r.error ? `failed: ${r.error}` : r.content}`);
      if (toolResults.length === 0) console.log(`turn ${turn}: the model answered`);
    },
  },
);
console.log(completion.choices[0]?.message.content);
console.log(`${messages.length} messages in the transcript`);
