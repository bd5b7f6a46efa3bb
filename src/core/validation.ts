import { safeParse, type ZodMiniType } from 'zod/mini';
import { ValidationError } from './errors.js';

/**
 * Checks `value` against a zod/mini schema and throws a {@link ValidationError} naming the
 * first offending field and its rule. Only the shape is checked; the value sent is the
 * caller's own object, so fields the schema does not know pass through untouched.
 */
export function validate(schema: ZodMiniType, value: unknown, root = 'params'): void {
  const result = safeParse(schema, value);
  if (result.success) return;
  const issue = result.error.issues[0];
  if (!issue) throw new ValidationError(root, 'is invalid');
  const { path, message } = deepest(issue);
  throw new ValidationError(formatPath(path, root), message);
}

interface Issue {
  path: ReadonlyArray<PropertyKey>;
  message: string;
  code?: string;
  errors?: ReadonlyArray<ReadonlyArray<Issue>>;
}

/**
 * A union reports one issue for all its options; when an option failed deeper inside the
 * value (an array of parts with one bad part), that inner issue says more, so report it.
 */
function deepest(issue: Issue): { path: ReadonlyArray<PropertyKey>; message: string } {
  let best: { path: ReadonlyArray<PropertyKey>; message: string } = issue;
  if (issue.code === 'invalid_union' && issue.errors) {
    for (const option of issue.errors) {
      for (const inner of option) {
        const found = deepest(inner);
        if (found.path.length > 0 && issue.path.length + found.path.length > best.path.length) {
          best = { path: [...issue.path, ...found.path], message: found.message };
        }
      }
    }
  }
  return best;
}

function formatPath(path: ReadonlyArray<PropertyKey>, root: string): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out ? `.${String(key)}` : String(key);
  return out || root;
}
