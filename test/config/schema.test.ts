// svc.schema.json (what editors check) and the validator (what `svc build` checks) must
// agree. The schema is rendered from the same shape as the validator; these tests read
// the shipped file on its own terms and probe the validator with what it says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseConfig } from '../../compiler/config/index.ts';
import { schemaText } from '../../compiler/config/schema-file.ts';
import { formatDiagnostics, hasErrors } from '../../compiler/diagnostics.ts';
import { repoRoot } from '../support/project.ts';

interface SchemaNode {
  type: 'object' | 'array' | 'string' | 'integer' | 'boolean';
  description: string;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: false | SchemaNode;
  items?: SchemaNode;
  default?: unknown;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  pattern?: string;
}

const schemaFile = join(repoRoot, 'svc.schema.json');
const shipped = JSON.parse(await readFile(schemaFile, 'utf8')) as SchemaNode & { $schema: string };

/** Valid values for the leaves that have no default. */
const SAMPLES: Record<string, unknown> = {
  $schema: './svc.schema.json',
  'ip.whitelist[]': '10.0.0.0/8',
  'ip.blacklist[]': '2001:db8::/32',
  'ip.trustProxy[]': '::ffff:127.0.0.1',
  'ip.routes./probe.whitelist[]': '127.0.0.1',
  'ip.routes./probe.blacklist[]': '::1',
  'health.services[].name': 'db',
  'health.services[].host': 'localhost',
  'health.services[].port': 5432,
  'health.services[].timeoutMs': 250,
};

type Step = string | '[]';

/** A document with `value` at `path`, wrapping in objects and one-item arrays; array items get their required siblings. */
function documentWith(path: Step[], value: unknown, node: SchemaNode = shipped): unknown {
  if (path.length === 0) return value;
  const [step, ...rest] = path;
  if (step === '[]') return [documentWith(rest, value, node.items!)];
  const child = node.properties?.[step] ?? (node.additionalProperties as SchemaNode);
  const siblings = Object.fromEntries((node.required ?? []).filter((key) => key !== step).map((key) => [key, sampleFor(node.properties![key], [...pathTo(node), key])]));
  return { ...siblings, [step]: documentWith(rest, value, child) };
}

const parents = new Map<SchemaNode, Step[]>();
const pathTo = (node: SchemaNode): Step[] => parents.get(node) ?? [];
const label = (path: Step[]): string => path.join('.').replaceAll('.[]', '[]');

function sampleFor(node: SchemaNode, path: Step[]): unknown {
  return node.default ?? node.enum?.[0] ?? SAMPLES[label(path)];
}

function errorsFor(document: unknown): string {
  const { diagnostics } = parseConfig(JSON.stringify(document));
  return hasErrors(diagnostics) ? formatDiagnostics(diagnostics) : '';
}

/** Every leaf and object of the schema, with its path. */
function* walk(node: SchemaNode, path: Step[] = []): Generator<[SchemaNode, Step[]]> {
  parents.set(node, path);
  yield [node, path];
  for (const [key, child] of Object.entries(node.properties ?? {})) yield* walk(child, [...path, key]);
  if (node.additionalProperties) yield* walk(node.additionalProperties, [...path, '/probe']);
  if (node.items) yield* walk(node.items, [...path, '[]']);
}

test('the shipped svc.schema.json is the rendering of the current shape', () => {
  assert.equal(JSON.stringify(shipped, null, 2) + '\n', schemaText(), 'stale: run `node --import tsx compiler/config/write-schema.ts`');
  assert.equal(shipped.$schema, 'https://json-schema.org/draft/2020-12/schema');
});

test('every key the schema lists is accepted by the validator, with its default or a sample', () => {
  for (const [node, path] of walk(shipped)) {
    if (node.type === 'object' || node.type === 'array' || path.length === 0) continue;
    const value = sampleFor(node, path);
    assert.notEqual(value, undefined, `no default or sample for ${label(path)}`);
    assert.ok(node.description, `${label(path)} has a description for editors`);
    assert.equal(errorsFor(documentWith(path, value)), '', label(path));
  }
});

test('keys the schema does not list are rejected by the validator', () => {
  for (const [node, path] of walk(shipped)) {
    if (node.type !== 'object' || node.additionalProperties !== false) continue;
    assert.match(errorsFor(documentWith([...path, 'notAKey'], 1)), /unknown key/, label(path));
  }
});

test('values outside the schema are rejected by the validator', () => {
  for (const [node, path] of walk(shipped)) {
    const wrong: unknown[] = [];
    if (node.type === 'integer') {
      wrong.push(node.minimum! - 1, node.minimum! + 0.5, String(node.minimum));
      if (node.maximum !== undefined) wrong.push(node.maximum + 1);
    }
    if (node.type === 'string') wrong.push(7, ...(node.enum ? ['not-in-enum'] : []), ...(node.pattern ? ['{x}'] : []));
    if (node.type === 'boolean') wrong.push('true');
    if (node.type === 'array' || node.type === 'object') wrong.push('text');
    for (const value of wrong) assert.notEqual(errorsFor(documentWith(path, value)), '', `${label(path)} = ${JSON.stringify(value)}`);
  }
});

test('the fixture configs that pass the validator also fit the schema keys', async () => {
  const valid = JSON.parse(await readFile(join(repoRoot, 'test', 'fixtures', 'config', 'valid', 'svc.json'), 'utf8'));
  const unknown: string[] = [];
  const visit = (value: unknown, node: SchemaNode, path: string): void => {
    if (Array.isArray(value)) value.forEach((item, i) => visit(item, node.items!, `${path}[${i}]`));
    else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        const childNode = node.properties?.[key] ?? (node.additionalProperties || undefined);
        if (childNode === undefined) unknown.push(`${path}.${key}`);
        else visit(child, childNode, `${path}.${key}`);
      }
    }
  };
  assert.equal(errorsFor(valid), '');
  visit(valid, shipped, '');
  assert.deepEqual(unknown, []);
});
