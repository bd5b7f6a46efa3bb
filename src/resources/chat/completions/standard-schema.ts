/**
 * The Standard Schema interface (https://standardschema.dev), as much of it as the SDK
 * reads: zod 4, valibot, arktype and others implement it. Declared here, as the spec
 * suggests, so the package needs no dependency for it.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaProps<Input, Output>;
}

/** The `~standard` property of a {@link StandardSchemaV1}. */
export interface StandardSchemaProps<Input = unknown, Output = Input> {
  readonly version: 1;
  /** The library, e.g. `zod`. */
  readonly vendor: string;
  readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
  /** Types only: what the schema accepts and gives. */
  readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  /**
   * The Standard JSON Schema interface: schemas that can describe themselves as JSON Schema
   * (zod 4.2 and later, among others).
   */
  readonly jsonSchema?: StandardJSONSchemaConverter | undefined;
}

/** Standard JSON Schema: converts a schema to JSON Schema for a target dialect. */
export interface StandardJSONSchemaConverter {
  input(options: { readonly target: string }): Record<string, unknown>;
  output(options: { readonly target: string }): Record<string, unknown>;
}

/** The result of `~standard.validate`. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined }> };

/** The type a schema accepts: the shape of the JSON it validates (what a partial object grows into). */
export type InferInput<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['input'];

/** The type a schema gives once validated. */
export type InferOutput<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['output'];
