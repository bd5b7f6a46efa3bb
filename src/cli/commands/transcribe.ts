import { constants, createReadStream } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { modelOption, stringOption, UsageError } from '../args.js';
import type { Command } from '../command.js';

const FORMATS = ['json', 'text', 'srt', 'vtt', 'verbose_json'] as const;
type Format = (typeof FORMATS)[number];
const isFormat = (value: string): value is Format => (FORMATS as readonly string[]).includes(value);

/** An ISO-639-1 code as the transcription endpoint takes it (`en`); a word (`english`) was sent, and paid for, before the gateway refused it. */
const ISO_639_1 = /^[a-z]{2}$/;

/** Refuses, before anything is sent, a <file> that is missing, a directory, or unreadable, saying which. */
async function checkAudioFile(file: string): Promise<void> {
  const refuse = (why: string) => new UsageError(`Cannot read '${file}': ${why}`, 'transcribe');
  const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
    throw refuse(error.code === 'ENOENT' || error.code === 'ENOTDIR' ? 'no such file' : error.code === 'EACCES' ? 'permission denied' : error.message);
  });
  if (info.isDirectory()) throw refuse('it is a directory; give an audio file');
  if (!info.isFile()) throw refuse('not a regular file');
  await access(file, constants.R_OK).catch(() => {
    throw refuse('permission denied');
  });
}

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
  argument: 'file',
  async run({ values, positionals, client, signal, io }) {
    const model = modelOption(values, 'whisper-1', 'transcribe');
    const file = positionals[0];
    if (file === undefined) throw new UsageError('Missing <file>: the audio file to transcribe', 'transcribe');
    const format = stringOption(values, 'format') ?? 'json';
    if (!isFormat(format)) throw new UsageError(`Option --format must be one of ${FORMATS.join(', ')}, got '${format}'`, 'transcribe');
    const language = stringOption(values, 'language');
    if (language !== undefined && !ISO_639_1.test(language)) throw new UsageError(`Option --language must be an ISO-639-1 two-letter code such as en, de or ja, got '${language}'`, 'transcribe');
    await checkAudioFile(file);

    const result = await client().audio.transcriptions.create(
      { file: createReadStream(file), model, language, response_format: format },
      { signal },
    );
    const text = typeof result === 'string' ? result : format === 'verbose_json' ? JSON.stringify(result, null, 2) : result.text;
    io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  },
};
