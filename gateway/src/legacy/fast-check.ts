/**
 * The legacy-reply check, cheaper: a valibot schema turned once into plain nested functions that give
 * the same output as `v.safeParse` on a valid reply, without valibot's per-node dataset objects
 * (its checks of a 25-row case list took ~10% of the list path's CPU).
 *
 * Still the same check, not a lighter one:
 * - object, array, union, optional, nullable, string, number, boolean, picklist and unknown nodes are
 *   checked here with valibot's own rules (src/schemas/* of valibot 1.5: an object keeps only its
 *   declared keys, fills declared defaults, refuses a missing required key; a union takes the first
 *   option that passes; a number is never NaN);
 * - every other node, and every pipe action (regex, transform, integer, min/max, check…), is run by
 *   valibot itself on that value;
 * - anything that does not pass here is parsed again by `v.safeParse`, whose result (issues for the
 *   502 and the ops log) is the answer. A valid reply thus never depends on this file being right
 *   about a refusal, and legacy/fast-check.test.ts compares both on valid and broken replies.
 */
import * as v from 'valibot';

const FAIL: unique symbol = Symbol('fail');
type Check = (value: unknown) => unknown;

type Node = v.GenericSchema & {
  type: string;
  pipe?: readonly (v.GenericSchema | v.GenericValidation | v.GenericTransformation | { kind: string })[];
  entries?: Record<string, Node>;
  item?: Node;
  options?: readonly unknown[];
  wrapped?: Node;
  default?: unknown;
  fallback?: unknown;
};

type RunnableItem = {
  kind: string;
  '~run'(dataset: object, config: object): v.OutputDataset<unknown, v.BaseIssue<unknown>>;
};

/** Runs one valibot node or action on a value the way a pipe does; FAIL when it has issues. */
const byValibot =
  (item: RunnableItem, typed: boolean): Check =>
  (value) => {
    const dataset = item['~run']({ typed, value }, v.getGlobalConfig());
    return dataset.issues || !dataset.typed ? FAIL : dataset.value;
  };

const OPTIONAL_TYPES = new Set(['optional', 'nullish', 'exact_optional']);

function compileNode(schema: Node): Check {
  if (schema.pipe) {
    // The pipe's first item is the schema it was made from (itself piped or not), then its actions.
    const [root, ...actions] = schema.pipe as Node[];
    const steps = [compileNode(root as Node)];
    for (const action of actions as unknown as RunnableItem[]) {
      if (action.kind === 'metadata') continue;
      steps.push(action.kind === 'schema' ? compileNode(action as unknown as Node) : byValibot(action, true));
    }
    return (value) => {
      let current = value;
      for (const step of steps) {
        current = step(current);
        if (current === FAIL) return FAIL;
      }
      return current;
    };
  }
  switch (schema.type) {
    case 'string':
      return (value) => (typeof value === 'string' ? value : FAIL);
    case 'number':
      return (value) => (typeof value === 'number' && !Number.isNaN(value) ? value : FAIL);
    case 'boolean':
      return (value) => (typeof value === 'boolean' ? value : FAIL);
    case 'unknown':
      return (value) => value;
    case 'picklist': {
      const options = schema.options ?? [];
      return (value) => (options.includes(value) ? value : FAIL);
    }
    case 'optional':
    case 'nullable': {
      if (typeof schema.default === 'function') break;
      const empty = schema.type === 'optional' ? undefined : null;
      const fallbackValue = schema.default;
      const wrapped = compileNode(schema.wrapped as Node);
      return (value) => {
        const current = value === empty && fallbackValue !== undefined ? fallbackValue : value;
        return current === empty ? current : wrapped(current);
      };
    }
    case 'union': {
      const options = (schema.options as Node[]).map(compileNode);
      return (value) => {
        for (const option of options) {
          const result = option(value);
          if (result !== FAIL) return result;
        }
        return FAIL;
      };
    }
    case 'array': {
      const item = compileNode(schema.item as Node);
      return (value) => {
        if (!Array.isArray(value)) return FAIL;
        const out: unknown[] = [];
        for (const element of value) {
          const result = item(element);
          if (result === FAIL) return FAIL;
          out.push(result);
        }
        return out;
      };
    }
    case 'object': {
      const entries = Object.entries(schema.entries ?? {}).map(([key, entry]) => {
        const defaulted = OPTIONAL_TYPES.has(entry.type) && entry.default !== undefined;
        if (entry.fallback !== undefined || (defaulted && typeof entry.default === 'function')) return null;
        return {
          key,
          check: compileNode(entry),
          required: !OPTIONAL_TYPES.has(entry.type),
          defaulted,
          defaultValue: entry.default,
        };
      });
      if (entries.some((entry) => entry === null)) break;
      const fields = entries as NonNullable<(typeof entries)[number]>[];
      return (value) => {
        if (!value || typeof value !== 'object') return FAIL;
        const input = value as Record<string, unknown>;
        const out: Record<string, unknown> = {};
        for (const field of fields) {
          let current: unknown;
          if (field.key in input) current = input[field.key];
          else if (field.defaulted) current = field.defaultValue;
          else if (field.required) return FAIL;
          else continue;
          const result = field.check(current);
          if (result === FAIL) return FAIL;
          out[field.key] = result;
        }
        return out;
      };
    }
  }
  return byValibot(schema as unknown as RunnableItem, false);
}

const compiled = new WeakMap<object, Check>();
const seenOnce = new WeakSet<object>();
const arrays = new WeakMap<object, v.GenericSchema>();

/**
 * `v.safeParse` with the same result, quicker on a valid value (see the top of this file). A schema
 * is compiled the second time it is used: one made inline for a single call is not worth it.
 */
export function checkLegacy<T>(
  schema: v.GenericSchema<unknown, T>,
  value: unknown,
): v.SafeParseResult<v.GenericSchema<unknown, T>> {
  let check = compiled.get(schema);
  if (!check) {
    if (!seenOnce.has(schema)) {
      seenOnce.add(schema);
      return v.safeParse(schema, value);
    }
    check = compileNode(schema as unknown as Node);
    compiled.set(schema, check);
  }
  const output = check(value);
  if (output !== FAIL) return { typed: true, success: true, output: output as T, issues: undefined };
  return v.safeParse(schema, value);
}

/** The array schema of `row`, made once per row schema (so its compiled check is kept too). */
export function arrayOf<T>(row: v.GenericSchema<unknown, T>): v.GenericSchema<unknown, T[]> {
  let schema = arrays.get(row);
  if (!schema) {
    schema = v.array(row);
    arrays.set(row, schema);
  }
  return schema as v.GenericSchema<unknown, T[]>;
}
