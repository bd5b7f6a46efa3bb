/** What a function (tool) name, or a `json_schema` response format's name, may be. */
export const TOOL_NAME_RULE = 'must be 1 to 64 letters, digits, _ or -';

/** True for a name the API accepts for a tool or a response format: `[A-Za-z0-9_-]{1,64}`. */
export const isToolName = (name: unknown): name is string => typeof name === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(name);
