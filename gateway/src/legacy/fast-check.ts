/**
 * The legacy-reply check, cheaper: a valibot schema turned once into generated functions, one per
 * node, that give the same output as `v.safeParse` on a valid reply, without valibot's per-node
 * dataset objects (its checks of a 25-row case list took ~10% of the list path's CPU).
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

/**
 * Compiles a schema into the source of one function per node (V8 then sees literal property names and
 * specialises each read, where a loop over the entries read every key through one dynamic access: a
 * 25-row case list checked in about a quarter of the time). What the source refers to (valibot
 * actions and nodes run as they are, picklist options, defaults) is handed in as `refs`, never
 * written into it; keys enter it only as JSON string literals.
 */
function compileSchema(schema: Node): Check {
  const functions: string[] = [];
  const refs: unknown[] = [];
  const names = new Map<Node, string>();
  const ref = (value: unknown) => {
    refs.push(value);
    return `refs[${refs.length - 1}]`;
  };

  const fn = (node: Node): string => {
    const known = names.get(node);
    if (known) return known;
    const name = `check${names.size}`;
    names.set(node, name);
    functions.push(`function ${name}(value) {\n${body(node)}\n}`);
    return name;
  };

  function body(node: Node): string {
    if (node.pipe) {
      // The pipe's first item is the schema it was made from (itself piped or not), then its actions.
      const [root, ...actions] = node.pipe as Node[];
      const steps = [`${fn(root as Node)}(current)`];
      for (const action of actions as unknown as RunnableItem[]) {
        if (action.kind === 'metadata') continue;
        steps.push(
          action.kind === 'schema'
            ? `${fn(action as unknown as Node)}(current)`
            : `${ref(byValibot(action, true))}(current)`,
        );
      }
      return `let current = value;\n${steps.map((step) => `current = ${step};\nif (current === FAIL) return FAIL;`).join('\n')}\nreturn current;`;
    }
    switch (node.type) {
      case 'string':
        return `return typeof value === 'string' ? value : FAIL;`;
      case 'number':
        return `return typeof value === 'number' && value === value ? value : FAIL;`;
      case 'boolean':
        return `return typeof value === 'boolean' ? value : FAIL;`;
      case 'unknown':
        return 'return value;';
      case 'picklist':
        return `return ${ref(node.options ?? [])}.includes(value) ? value : FAIL;`;
      case 'optional':
      case 'nullable': {
        if (typeof node.default === 'function') break;
        const empty = node.type === 'optional' ? 'undefined' : 'null';
        const current =
          node.default === undefined ? 'value' : `(value === ${empty} ? ${ref(node.default)} : value)`;
        return `const current = ${current};\nreturn current === ${empty} ? current : ${fn(node.wrapped as Node)}(current);`;
      }
      case 'union': {
        const tries = (node.options as Node[]).map(
          (option) => `result = ${fn(option)}(value);\nif (result !== FAIL) return result;`,
        );
        return `let result;\n${tries.join('\n')}\nreturn FAIL;`;
      }
      case 'array':
        return [
          'if (!Array.isArray(value)) return FAIL;',
          'const out = [];',
          'for (let i = 0; i < value.length; i++) {',
          `  const result = ${fn(node.item as Node)}(value[i]);`,
          '  if (result === FAIL) return FAIL;',
          '  out.push(result);',
          '}',
          'return out;',
        ].join('\n');
      case 'object': {
        const entries = Object.entries(node.entries ?? {});
        const runtimeDefault = entries.some(
          ([, entry]) =>
            entry.fallback !== undefined ||
            (OPTIONAL_TYPES.has(entry.type) && typeof entry.default === 'function'),
        );
        if (runtimeDefault) break;
        const fields = entries.map(([key, entry]) => {
          const name = JSON.stringify(key);
          const check = fn(entry);
          const defaulted = OPTIONAL_TYPES.has(entry.type) && entry.default !== undefined;
          const absent = defaulted
            ? `current = ${check}(${ref(entry.default)});\nif (current === FAIL) return FAIL;\nout[${name}] = current;`
            : OPTIONAL_TYPES.has(entry.type)
              ? ''
              : 'return FAIL;';
          return `if (${name} in value) {\ncurrent = ${check}(value[${name}]);\nif (current === FAIL) return FAIL;\nout[${name}] = current;\n} else {\n${absent}\n}`;
        });
        return `if (!value || typeof value !== 'object') return FAIL;\nconst out = {};\nlet current;\n${fields.join('\n')}\nreturn out;`;
      }
    }
    // Any other node, or one with a default computed at run time: valibot runs it itself.
    return `return ${ref(byValibot(node as unknown as RunnableItem, false))}(value);`;
  }

  const root = fn(schema);
  // The source is built above from our own schemas only; no reply value ever enters it.
  return new Function('refs', 'FAIL', `${functions.join('\n')}\nreturn ${root};`)(refs, FAIL) as Check;
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
    check = compileSchema(schema as unknown as Node);
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
