import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { singlePositional, stringOption, UsageError } from '../args.js';
import type { Command } from '../command.js';

const FORMATS = ['json', 'text', 'srt', 'vtt', 'verbose_json'] as const;
type Format = (typeof FORMATS)[number];
const isFormat = (value: string): value is Format => (FORMATS as readonly string[]).includes(value);

/** `unified-gateway transcribe <file>`: speech to text, printed to stdout. */
export const transcribe: Command = {
  name: 'transcribe',
  summary: 'Transcribe an audio file and print the text',
  help: `Usage: unified-gateway transcribe <file> [--model M] [--language xx] [--format F]

Upload an audio file (mp3, mp4, m4a, wav, webm, ogg, flac) and print its transcript.

Options:
  --model M       The speech model (default: whisper-1)
  --language xx   ISO-639-1 language of the audio, e.g. en (improves accuracy)
  --format F      json (default: prints the text), text, srt, vtt or verbose_json
                  (srt, vtt and verbose_json are printed as the gateway sends them)

Examples:
  unified-gateway transcribe talk.mp3
  unified-gateway transcribe talk.mp3 --language en --format srt > talk.srt`,
  options: {
    model: { type: 'string', short: 'm' },
    language: { type: 'string' },
    format: { type: 'string' },
  },
  async run({ values, positionals, client, signal, io }) {
    const file = singlePositional(positionals, 'file', 'transcribe');
    if (file === undefined) throw new UsageError('Missing <file>: the audio file to transcribe', 'transcribe');
    const format = stringOption(values, 'format') ?? 'json';
    if (!isFormat(format)) throw new UsageError(`Option --format must be one of ${FORMATS.join(', ')}, got '${format}'`, 'transcribe');
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) throw new UsageError(`Cannot read '${file}': no such file`, 'transcribe');

    const result = await client().audio.transcriptions.create(
      { file: createReadStream(file), model: stringOption(values, 'model') ?? 'whisper-1', language: stringOption(values, 'language'), response_format: format },
      { signal },
    );
    const text = typeof result === 'string' ? result : format === 'verbose_json' ? JSON.stringify(result, null, 2) : result.text;
    io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  },
};
