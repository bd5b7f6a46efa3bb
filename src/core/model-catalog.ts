/**
 * The model ids your gateway lists, as types: empty in the package, filled in by the
 * declaration `unified-gateway models --typescript` writes (see docs/cli.md). Each key is
 * an id; the values are not read (`true` by convention). Once filled in, every `model` field
 * autocompletes these ids and still accepts any other string: see {@link ModelId}.
 *
 * Exported from the package's root so that a module augmentation of `'unified-gateway'`
 * merges into this interface.
 * @example
 * // gateway-models.d.ts, anywhere your tsconfig includes
 * export {};
 * declare module 'unified-gateway' {
 *   interface ModelCatalog {
 *     'gpt-4o-mini': true;
 *     'text-embedding-3-small': true;
 *   }
 * }
 */
export interface ModelCatalog {}

/**
 * A model id: one of the {@link ModelCatalog}'s ids (offered by editors), or any other
 * string. Without a catalogue it is just `string`.
 * @example
 * const fast: ModelId = 'gpt-4o-mini';
 */
// `string & {}` keeps the literals from being folded into `string`, which would offer nothing.
export type ModelId = Extract<keyof ModelCatalog, string> | (string & {});
