import type { StandardSchemaV1 } from './standard-schema.js';
import type { ToolRunContext } from './types.js';

/** The registered symbol under which structured.ts keeps a response format's or tool's schema. */
const SCHEMA = Symbol.for('unified-gateway.schema');

/** What the SDK keeps behind a response format or a tool made by `responseFormat` / `defineTool`. */
export interface SchemaSlot {
  schema: StandardSchemaV1;
  run?: ((args: never, context: ToolRunContext) => unknown) | undefined;
}

/** The schema (and run) behind a response format or tool, if it was made by this SDK. */
export function slotOf(value: unknown): SchemaSlot | undefined {
  return typeof value === 'object' && value !== null ? ((value as { [SCHEMA]?: SchemaSlot })[SCHEMA] ?? undefined) : undefined;
}
