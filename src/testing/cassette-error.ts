import { GatewayError } from '../core/errors.js';

/**
 * A recorder in `replay` mode was asked for a request it has no cassette for; nothing was
 * sent. The message names the request and how it differs from the nearest cassette. A
 * GatewayError that is not a connection error, so the client gives up at once (no retry,
 * no failover, no fallback).
 */
export class CassetteNotFoundError extends GatewayError {
  static override readonly kind = 'CassetteNotFoundError';
  /** `GET`, `POST`, … */
  readonly method: string;
  /** Relative to the base URL, as cassettes keep it: `chat/completions`. */
  readonly path: string;
  /** The model the request named, or null. */
  readonly model: string | null;
  /** The file name of the nearest cassette, or null when there is none. */
  readonly nearest: string | null;
  /** How the request differs from it, one field per line: `temperature: recorded 0.2, sent 0.7`. */
  readonly differences: readonly string[];
  /** @internal */
  constructor(message: string, details: { method: string; path: string; model: string | null; nearest: string | null; differences: readonly string[] }) {
    super(message);
    this.method = details.method;
    this.path = details.path;
    this.model = details.model;
    this.nearest = details.nearest;
    this.differences = details.differences;
  }
}
