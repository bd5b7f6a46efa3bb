// Structured outputs as they stream: partialObjects() gives the reply as typed partial objects, redrawn in the terminal as it grows.
import { Gateway, ParseError, responseFormat, type DeepPartial } from 'unified-gateway';
import { z } from 'zod';

const client = new Gateway();
const model = process.env.GATEWAY_CHAT_MODEL ?? 'gpt-4o-mini';

const Trip = z.object({
  city: z.string(),
  nights: z.number().int(),
  days: z.array(z.object({ day: z.number().int(), morning: z.string(), evening: z.string() })),
});

/** The trip so far as lines; what has not arrived yet shows as `…`. */
function render(trip: DeepPartial<z.input<typeof Trip>>): string[] {
  const lines = [`${trip.city ?? '…'}, ${trip.nights ?? '…'} nights`];
  for (const day of trip.days ?? []) lines.push(`  day ${day.day ?? '…'}: ${day.morning ?? '…'} / ${day.evening ?? '…'}`);
  return lines;
}

// In a terminal, each partial replaces the last drawing (lines cut to the width, so the
// cursor moves back up exactly as many lines); piped, only the result is printed.
const tty = process.stdout.isTTY;
const width = process.stdout.columns ?? 80;
let drawn = 0;
function draw(lines: string[]): void {
  if (drawn) process.stdout.write(`\x1b[${drawn}F\x1b[0J`);
  process.stdout.write(`${lines.map((l) => l.slice(0, width - 1)).join('\n')}\n`);
  drawn = lines.length;
}

try {
  const stream = await client.chat.completions.parse({
    model,
    messages: [{ role: 'user', content: 'Plan three days in Lisbon: a morning and an evening each day.' }],
    response_format: responseFormat(Trip, 'trip'),
    stream: true,
  });
  let partials = 0;
  for await (const trip of stream.partialObjects()) {
    partials++;
    if (tty) draw(render(trip));
  }
  const message = (await stream.finalChatCompletion()).choices[0]?.message;
  if (message?.refusal) console.log(`the model declined: ${message.refusal}`);
  else if (message?.parsed) {
    if (!tty) draw(render(message.parsed));
    console.log(`(${partials} partial objects, then the reply validated: ${message.parsed.days.length} days)`);
  }
} catch (err) {
  // The reply did not match the schema, or was not JSON: the raw text is on err.content.
  if (err instanceof ParseError) console.log(`unusable reply (${err.issues.join('; ') || 'not JSON'}): ${err.content}`);
  else throw err;
}
