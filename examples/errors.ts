// Errors: typed classes for every failure; bad arguments are caught before anything is sent.
import { Gateway, NotFoundError, RateLimitError, ValidationError, APIError } from 'unified-gateway';

const client = new Gateway();

try {
  await client.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'hi' }],
    temperature: 3, // the gateway allows 0..2
  });
} catch (err) {
  if (err instanceof ValidationError) console.log(`ValidationError before sending: ${err.field} ${err.rule}`);
}

try {
  await client.models.retrieve('no-such-model');
} catch (err) {
  if (err instanceof NotFoundError) {
    console.log(`NotFoundError: status=${err.status} code=${err.code} request=${err.requestID}`);
  } else if (err instanceof RateLimitError) {
    console.log(`rate limited; retry after ${err.retryAfterMs} ms`);
  } else if (err instanceof APIError) {
    console.log(`other API error ${err.status}: ${err.message}`);
  } else throw err;
}
