// Structured outputs: a zod schema as the response format; parse() returns the reply validated and typed.
import { Gateway, ParseError, responseFormat } from 'unified-gateway';
import { z } from 'zod';

const client = new Gateway();
const model = process.env.GATEWAY_CHAT_MODEL ?? 'gpt-4o-mini';

// Strict mode wants every property required: .nullable() where a value may be missing.
const Event = z.object({
  title: z.string(),
  city: z.string(),
  attendees: z.number().int(),
  date: z.string().nullable().describe('ISO date, or null when not given'),
});

try {
  const completion = await client.chat.completions.parse({
    model,
    messages: [{ role: 'user', content: 'Extract the event: team dinner in Lisbon for 8 people.' }],
    response_format: responseFormat(Event, 'event', { description: 'A calendar event' }),
  });
  const message = completion.choices[0]?.message;
  if (message?.refusal) console.log(`the model declined: ${message.refusal}`);
  else if (message?.parsed) {
    const { title, city, attendees, date } = message.parsed; // typed from the schema
    console.log(`title: ${title}\ncity: ${city}\nattendees: ${attendees}\ndate: ${date ?? '(none)'}`);
  }
} catch (err) {
  // The reply was not JSON, or did not match the schema: the raw text is on err.content.
  if (err instanceof ParseError) console.log(`unusable reply (${err.issues.join('; ') || 'not JSON'}): ${err.content}`);
  else throw err;
}
