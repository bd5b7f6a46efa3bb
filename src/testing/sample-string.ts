/** Property-name words that ask for a place. */
const PLACE_WORDS = new Set(['city', 'cities', 'town', 'location', 'locations', 'place', 'places', 'country', 'region', 'destination']);
/** A fixed valid value per string `format` OpenAI's structured outputs accept. */
const FORMATS: Record<string, string> = {
  'date-time': '2024-01-01T12:00:00Z',
  date: '2024-01-01',
  time: '12:00:00',
  duration: 'P1D',
  email: 'user@example.com',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uuid: '00000000-0000-4000-8000-000000000000',
  uri: 'https://example.com/',
};

/**
 * A string for a schema: a fixed value for a known `format`, a place taken from `text` when the
 * property name asks for one, else a short phrase of `text`; `variant` > 0 appends a number so
 * array items differ.
 */
export function stringFor(s: Record<string, unknown>, name: string, text: string, variant: number): string {
  const format = typeof s.format === 'string' && Object.hasOwn(FORMATS, s.format) ? FORMATS[s.format] : undefined;
  const nameWords = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z]+/);
  let out = format ?? (nameWords.some((n) => PLACE_WORDS.has(n)) ? placeIn(text) : phraseOf(text, name));
  if (!format && variant > 0) out += ` ${variant + 1}`;
  const minLength = typeof s.minLength === 'number' ? s.minLength : 0;
  if (out.length < minLength) out = out.padEnd(minLength, '.');
  return typeof s.maxLength === 'number' ? out.slice(0, s.maxLength) : out;
}

/** The first run of capitalised words that does not open a sentence ("weather in New York" → New York). */
function placeIn(text: string): string {
  for (const sentence of text.split(/(?<=[.!?])\s+/)) {
    // "I" is capitalised but never a place; lowering it keeps offsets unchanged.
    const match = /\s["'“‘(]?(\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*)*)/u.exec(sentence.replace(/\bI\b/g, 'i'));
    if (match?.[1]) {
      const start = match.index + match[0].length - match[1].length;
      return sentence.slice(start, start + match[1].length).replace(/['’]s$|['’-]+$/, '');
    }
  }
  return 'Paris';
}

/** The first four words of the user's message, or the property name when there is none. */
function phraseOf(text: string, name: string): string {
  const words = text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
  return words.slice(0, 4).join(' ') || name.replace(/[_-]+/g, ' ') || 'example';
}
