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
  const { path, message } = explain(issue as Issue);
  throw new ValidationError(formatPath(path, root), message);
}

interface Issue {
  path: ReadonlyArray<PropertyKey>;
  message: string;
  code?: string | undefined;
  errors?: ReadonlyArray<ReadonlyArray<Issue>> | undefined;
}

interface Explained {
  path: ReadonlyArray<PropertyKey>;
  message: string;
}

/**
 * Turns a union failure into the issue a person needs. Options whose literal tag did not
 * match (`role`, `type`) are not the one the caller meant and are set aside; when every
 * option was set aside, the tag itself is wrong and the union's own rule is reported at it.
 * Otherwise the remaining option that failed deepest inside the value explains the failure.
 */
function explain(issue: Issue): Explained {
  if (issue.code !== 'invalid_union' || !issue.errors?.length) return issue;
  const isTagMismatch = (i: Issue) => i.code === 'invalid_value' && i.path.length === 1;
  const meant = issue.errors.filter((option) => !option.some(isTagMismatch));
  if (meant.length === 0) {
    const tag = issue.errors[0]?.find(isTagMismatch);
    return { path: [...issue.path, ...(tag?.path ?? [])], message: issue.message };
  }
  let best: Explained = issue;
  for (const option of meant) {
    const first = option[0];
    if (!first) continue;
    const inner = explain(first);
    if (inner.path.length > 0 && issue.path.length + inner.path.length > best.path.length) {
      best = { path: [...issue.path, ...inner.path], message: inner.message };
    }
  }
  return best;
}

function formatPath(path: ReadonlyArray<PropertyKey>, root: string): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out ? `.${String(key)}` : String(key);
  return out || root;
}
