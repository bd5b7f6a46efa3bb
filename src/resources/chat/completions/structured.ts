import { ValidationError } from '../../../core/errors.js';
import type { InferInput, InferOutput, StandardSchemaV1 } from './standard-schema.js';
import type { SchemaSlot } from './slot.js';
import { isToolName, TOOL_NAME_RULE } from './tool-name.js';
import type { ChatCompletionTool, ToolRunContext } from './types.js';

/**
 * Where a response format or tool keeps its schema (and `run`): not enumerable, never sent.
 * A registered symbol, the same one slot.ts reads, so a copy of the package loaded twice
 * (ESM beside CJS) finds the other's.
 */
const SCHEMA = /* @__PURE__ */ Symbol.for('unified-gateway.schema');

declare const parsedType: unique symbol;
declare const inputType: unique symbol;
declare const toolTypes: unique symbol;

/**
 * A `json_schema` response format made by {@link responseFormat}: `T` is what `message.parsed`
 * becomes (the schema's output), `In` the JSON the schema accepts (its input), which
 * `partialObjects()` gives as it grows.
 */
export interface ResponseFormatJSONSchema<T = unknown, In = T> {
  type: 'json_schema';
  json_schema: { name: string; description?: string | undefined; schema: Record<string, unknown>; strict: boolean };
  /** Types only. */
  readonly [parsedType]?: T;
  /** Types only. */
  readonly [inputType]?: In;
}

/** The definition given to {@link defineTool}. */
export interface ToolDefinition<N extends string, S extends StandardSchemaV1, R> {
  /** The function name the model calls: letters, digits, `_` and `-`, at most 64. */
  name: N;
  /** What it does, for the model. */
  description?: string | undefined;
  /** Its arguments, as a Standard Schema; sent as JSON Schema, and checked on every call. */
  parameters: S;
  /** Ask the model to follow the schema exactly. @default true */
  strict?: boolean | undefined;
  /** The JSON Schema to send, for a schema that cannot describe itself (zod/mini: `toJSONSchema(schema, { io: 'input' })`; zod 3: `zodToJsonSchema(schema)` from zod-to-json-schema). */
  jsonSchema?: Record<string, unknown> | undefined;
  /** Runs the tool (only `runTools` needs it). Its result is sent back to the model as JSON text. */
  run?: ((args: InferOutput<S>, context: ToolRunContext) => R | Promise<R>) | undefined;
}

/** A chat tool made by {@link defineTool}: usable wherever a tool is, typed by its schema. */
export interface DefinedTool<N extends string = string, Args = unknown, R = unknown> extends ChatCompletionTool {
  function: { name: N; description?: string | undefined; parameters: Record<string, unknown>; strict?: boolean | null | undefined };
  /** Types only. */
  readonly [toolTypes]?: { args: Args; result: R };
}

/**
 * A `json_schema` response format from any Standard Schema that can give a JSON Schema.
 * Pass it to `chat.completions.parse()` to get `message.parsed`, validated and typed.
 * @example
 * const Weather = z.object({ city: z.string(), celsius: z.number() });
 * const completion = await client.chat.completions.parse({ model, messages, response_format: responseFormat(Weather, 'weather') });
 * completion.choices[0]?.message.parsed; // { city: string; celsius: number } | null
 */
export function responseFormat<S extends StandardSchemaV1>(schema: S, name: string, options: ResponseFormatOptions = {}): ResponseFormatJSONSchema<InferOutput<S>, InferInput<S>> {
  if (!isToolName(name)) throw new ValidationError('name', TOOL_NAME_RULE);
  const format: ResponseFormatJSONSchema<InferOutput<S>, InferInput<S>> = {
    type: 'json_schema',
    json_schema: { name, ...(options.description ? { description: options.description } : {}), schema: jsonSchemaOf(schema, 'schema', options.jsonSchema), strict: options.strict ?? true },
  };
  return attach(format, { schema });
}

/** Options of {@link responseFormat}. */
export interface ResponseFormatOptions {
  /** What the output is, for the model. */
  description?: string | undefined;
  /** Ask the model to follow the schema exactly. @default true */
  strict?: boolean | undefined;
  /** The JSON Schema to send, for a schema that cannot describe itself (zod/mini: `toJSONSchema(schema, { io: 'input' })`; zod 3: `zodToJsonSchema(schema)` from zod-to-json-schema). */
  jsonSchema?: Record<string, unknown> | undefined;
}

/**
 * A tool whose arguments are a Standard Schema: sent as JSON Schema, checked on every call
 * (`parse()` fills `parsed_arguments`), and run by `chat.completions.runTools()`.
 * @example
 * const getWeather = defineTool({
 *   name: 'get_weather', description: 'Current weather for a city',
 *   parameters: z.object({ city: z.string() }),
 *   run: async ({ city }) => ({ city, celsius: 18 }),
 * });
 */
export function defineTool<const N extends string, S extends StandardSchemaV1, R = unknown>(tool: ToolDefinition<N, S, R>): DefinedTool<N, InferOutput<S>, R> {
  if (typeof tool !== 'object' || tool === null) throw new ValidationError('tool', 'must be an object { name, description, parameters, run? }');
  if (!isToolName(tool.name)) throw new ValidationError('name', TOOL_NAME_RULE);
  if (tool.run !== undefined && typeof tool.run !== 'function') throw new ValidationError('run', 'must be a function');
  const parameters = jsonSchemaOf(tool.parameters, 'parameters', tool.jsonSchema);
  const defined: DefinedTool<N, InferOutput<S>, R> = {
    type: 'function',
    function: { name: tool.name, ...(tool.description ? { description: tool.description } : {}), parameters, strict: tool.strict ?? true },
  };
  return attach(defined, { schema: tool.parameters, run: tool.run as SchemaSlot['run'] });
}

function attach<T extends object>(target: T, slot: SchemaSlot): T {
  Object.defineProperty(target, SCHEMA, { value: slot });
  return target;
}

/**
 * The JSON Schema of what `schema` accepts (the model's reply is what it validates): the one
 * given explicitly; else through the Standard JSON Schema interface; else, for a zod schema,
 * zod's own conversion (`schema.toJSONSchema()`, zod 4.1). The SDK imports no converter, so
 * a bundle carries one only when the app's schema library does.
 */
function jsonSchemaOf(schema: StandardSchemaV1, field: string, explicit: Record<string, unknown> | undefined): Record<string, unknown> {
  const props = (schema as Partial<StandardSchemaV1> | null)?.['~standard'];
  if (typeof props !== 'object' || props === null || typeof props.validate !== 'function') {
    throw new ValidationError(field, 'must be a Standard Schema (zod 4, valibot, arktype, …)');
  }
  const own = (schema as { toJSONSchema?: unknown }).toJSONSchema;
  try {
    if (explicit) return forModels(explicit);
    if (props.jsonSchema) return forModels(props.jsonSchema.input({ target: 'draft-2020-12' }));
    if (props.vendor === 'zod' && typeof own === 'function') return forModels(own.call(schema, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>);
  } catch (error) {
    throw new ValidationError(field, `cannot be described as JSON Schema: ${error instanceof Error ? error.message : String(error)}`);
  }
  throw new ValidationError(field, noJSONSchemaHint(schema, props.vendor));
}

/** What to pass for a schema that gives no JSON Schema, by library. */
function noJSONSchemaHint(schema: StandardSchemaV1, vendor: string): string {
  if (vendor !== 'zod') {
    return `is a ${vendor} schema that gives no JSON Schema: use your library's JSON Schema adapter and pass { jsonSchema }, or a library that implements Standard JSON Schema`;
  }
  // zod 4 schemas (zod and zod/mini) carry `_zod`; zod 3 ones only `_def`, and zod 4's
  // toJSONSchema cannot convert them.
  if (!('_zod' in schema)) {
    return "is a zod 3 schema, which zod's toJSONSchema cannot convert: pass { jsonSchema: zodToJsonSchema(schema) } (import { zodToJsonSchema } from 'zod-to-json-schema'), or move to zod 4";
  }
  return "is a zod schema that cannot describe itself (zod/mini, or zod before 4.1): pass { jsonSchema: toJSONSchema(schema, { io: 'input' }) } (import { toJSONSchema } from 'zod/mini', or from 'zod')";
}

/**
 * JSON Schema as structured outputs want it: no `$schema` key, and every object closed
 * (`additionalProperties: false`), which strict mode requires and validation is unchanged by.
 */
export function forModels(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return close(rest) as Record<string, unknown>;
}

function close(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(close);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = close(value);
  if (out.type === 'object' && typeof out.properties === 'object' && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}
