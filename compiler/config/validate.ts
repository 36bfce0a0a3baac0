// Walks the parsed svc.json tree against the shape, reporting every problem with its
// JSON path (`ip.routes./admin.whitelist[1]`) and returning the value with defaults
// filled in where a key is missing or invalid.
import type { Node } from 'jsonc-parser';
import { closest } from '../closest-name.ts';
import type { ArrayShape, IntegerShape, MapShape, ObjectShape, Shape, StringShape } from './shape.ts';

export interface Reporter {
  error(node: Node, text: string, notes?: string[]): void;
  warning(node: Node, text: string): void;
  /** Remembers where a key or array item is, for checks and routes that point back into svc.json. */
  place(path: string, node: Node): void;
}

export function validate(node: Node, shape: Shape, path: string, report: Reporter): unknown {
  switch (shape.type) {
    case 'object':
      return validateObject(node, shape, path, report);
    case 'map':
      return validateMap(node, shape, path, report);
    case 'array':
      return validateArray(node, shape, path, report);
    case 'string':
      return validateString(node, shape, path, report);
    case 'integer':
      return validateInteger(node, shape, path, report);
    case 'boolean':
      if (node.type === 'boolean') return node.value;
      report.error(node, `${label(path)}: expected true or false, got ${describe(node)}`);
      return undefined;
  }
}

/** The value of a missing key: its default, with nested objects built from theirs. */
function defaultOf(shape: Shape): unknown {
  switch (shape.type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(shape.properties)) {
        const fallback = defaultOf(property);
        if (fallback !== undefined) value[key] = fallback;
      }
      return value;
    }
    case 'map':
      return structuredClone(shape.default ?? {});
    case 'array':
      return shape.default === undefined ? undefined : structuredClone(shape.default);
    default:
      return shape.default;
  }
}

function validateObject(node: Node, shape: ObjectShape, path: string, report: Reporter): unknown {
  if (node.type !== 'object') {
    report.error(node, `${label(path)}: expected an object, got ${describe(node)}`);
    return defaultOf(shape);
  }
  const given: Record<string, unknown> = {};
  for (const [key, keyNode, valueNode] of properties(node, path, report)) {
    const keyPath = join(path, key);
    const property = Object.hasOwn(shape.properties, key) ? shape.properties[key] : undefined;
    if (property === undefined) {
      const known = Object.keys(shape.properties);
      const guess = closest(key, known);
      report.error(keyNode, `${keyPath}: unknown key${guess ? ` (did you mean "${guess}"?)` : ''}`, [
        `known keys${path ? ` in ${path}` : ''}: ${known.join(', ')}`,
      ]);
      continue;
    }
    given[key] = validate(valueNode, property, keyPath, report);
  }
  for (const key of shape.required ?? []) {
    if (!(key in given)) report.error(node, `${label(path)}: missing required key "${key}"`);
  }
  // Keys in the order of the shape, whatever the file's order, so output stays reproducible.
  const value: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(shape.properties)) {
    const chosen = given[key] ?? defaultOf(property);
    if (chosen !== undefined) value[key] = chosen;
  }
  return value;
}

function validateMap(node: Node, shape: MapShape, path: string, report: Reporter): unknown {
  if (node.type !== 'object') {
    report.error(node, `${label(path)}: expected an object, got ${describe(node)}`);
    return {};
  }
  const keyPattern = new RegExp(shape.keyPattern);
  const entries: Array<[string, unknown]> = [];
  for (const [key, keyNode, valueNode] of properties(node, path, report)) {
    const keyPath = join(path, key);
    if (!keyPattern.test(key)) {
      report.error(keyNode, `${keyPath}: "${key}" is not ${shape.keyExpected}`);
      continue;
    }
    const suspicious = shape.keyWarn?.(key);
    if (suspicious) report.warning(keyNode, `${keyPath}: ${suspicious}`);
    entries.push([key, validate(valueNode, shape.values, keyPath, report)]);
  }
  // Free keys are the user's: assigned one by one, the ip.routes key `__proto__` (the path
  // /__proto__) would set the object's prototype and its rules would vanish without a word.
  return Object.fromEntries(entries);
}

function validateArray(node: Node, shape: ArrayShape, path: string, report: Reporter): unknown {
  if (node.type !== 'array') {
    report.error(node, `${label(path)}: expected an array, got ${describe(node)}`);
    return undefined;
  }
  // One bad item voids the list (the build fails anyway), so that indexes in the value
  // stay those of the file for the checks that run after this one.
  const items = (node.children ?? []).map((child, i) => {
    const itemPath = `${path}[${i}]`;
    report.place(itemPath, child);
    return validate(child, shape.items, itemPath, report);
  });
  return items.includes(undefined) ? undefined : items;
}

function validateString(node: Node, shape: StringShape, path: string, report: Reporter): unknown {
  if (node.type !== 'string') {
    report.error(node, `${label(path)}: expected ${shape.expected ?? 'a string'}, got ${describe(node)}`);
    return undefined;
  }
  const text = node.value as string;
  const problem = shape.enum && !shape.enum.includes(text)
    ? `"${text}" is not one of ${shape.enum.map((v) => `"${v}"`).join(', ')}`
    : shape.minLength !== undefined && text.length < shape.minLength
      ? 'must not be empty'
      : shape.check
        ? shape.check(text)
        : shape.pattern && !new RegExp(shape.pattern).test(text)
          ? `"${text}" is not ${shape.expected}`
          : null;
  if (problem !== null) {
    report.error(node, `${label(path)}: ${problem}`);
    return undefined;
  }
  const suspicious = shape.warn?.(text);
  if (suspicious) report.warning(node, `${label(path)}: ${suspicious}`);
  return text;
}

function validateInteger(node: Node, shape: IntegerShape, path: string, report: Reporter): unknown {
  const value = node.value;
  if (node.type === 'number' && Number.isInteger(value) && value >= shape.minimum && (shape.maximum === undefined || value <= shape.maximum)) {
    return value;
  }
  const range = shape.maximum === undefined ? `of at least ${shape.minimum}` : `from ${shape.minimum} to ${shape.maximum}${shape.maximumReason ? ` (${shape.maximumReason})` : ''}`;
  report.error(node, `${label(path)}: expected a whole number ${range}, got ${describe(node)}`);
  return undefined;
}

/** An object's properties as [key, key node, value node], duplicates reported and skipped. */
function* properties(node: Node, path: string, report: Reporter): Generator<[string, Node, Node]> {
  const seen = new Set<string>();
  for (const property of node.children ?? []) {
    const [keyNode, valueNode] = property.children ?? [];
    if (keyNode === undefined || valueNode === undefined) continue; // a syntax error, reported by the parser
    const key = keyNode.value as string;
    const keyPath = join(path, key);
    if (seen.has(key)) {
      report.error(keyNode, `${keyPath}: duplicate key; give each key once`);
      continue;
    }
    seen.add(key);
    report.place(keyPath, keyNode);
    yield [key, keyNode, valueNode];
  }
}

const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);
const label = (path: string): string => path || 'svc.json';

function describe(node: Node): string {
  switch (node.type) {
    case 'string':
      return `the string ${JSON.stringify(node.value)}`;
    case 'number':
    case 'boolean':
    case 'null':
      return String(node.value);
    default:
      return `an ${node.type}`;
  }
}
