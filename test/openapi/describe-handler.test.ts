// describeHandler on the fixture's handlers, through the real type checker: one
// committed snapshot per type form (test/fixtures/openapi/expected/types/<method>.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SyntaxKind } from 'ts-morph';
import { createProject } from '../../compiler/analyse/project.ts';
import { Reporter } from '../../compiler/analyse/reporter.ts';
import { describeHandler, SchemaRegistry, type HandlerDeclaration } from '../../compiler/analyse/schema/index.ts';
import { ComponentNames } from '../../compiler/analyse/schema/naming.ts';
import { stableJson } from '../../compiler/emit/openapi/stable-json.ts';
import { repoRoot } from '../support/project.ts';
import { assertSnapshot } from './snapshot.ts';

const fixture = join(repoRoot, 'test', 'fixtures', 'openapi', 'app');
const project = createProject();
const controller = project.addSourceFileAtPath(join(fixture, 'weave', 'Controllers', 'TypesController.ts')).getClassOrThrow('TypesController');

/** A handler's description with the components (named) and warnings it produced on a fresh registry. */
function describeAlone(method: HandlerDeclaration) {
  const reporter = new Reporter(fixture);
  const registry = new SchemaRegistry(reporter);
  const described = describeHandler(method, registry);
  const names = new ComponentNames(registry.components);
  names.meet([described.params.map((p) => p.schema), described.returns]);
  const description = { ...described, params: names.renamed(described.params), returns: names.renamed(described.returns) };
  return { description, components: names.schemas, warnings: reporter.diagnostics };
}

for (const method of controller.getMethods()) {
  test(`type form ${method.getName()} matches its snapshot`, async () => {
    await assertSnapshot(stableJson(describeAlone(method)), join(fixture, '..', 'expected', 'types', `${method.getName()}.json`));
  });
}

test('recursive types end in a $ref to themselves', () => {
  const { components } = describeAlone(controller.getMethodOrThrow('recursive'));
  assert.deepEqual((components.Category!.properties as Record<string, unknown>).children, { type: 'array', items: { $ref: '#/components/schemas/Category' } });
  assert.deepEqual((components.Book!.properties as Record<string, unknown>).author, { $ref: '#/components/schemas/Author' });
});

test('placeholder kinds follow the declared parameter types', () => {
  const { params } = describeAlone(controller.getMethodOrThrow('params')).description;
  assert.deepEqual(
    params.map((p) => [p.name, p.optional, p.kind]),
    [
      ['id', false, { kind: 'number' }],
      ['status', false, { kind: 'enum', values: ['draft', 'published'] }],
      ['role', false, { kind: 'enum', values: ['admin', 'member'] }],
      ['name', true, { kind: 'string' }],
      ['page', true, { kind: 'number' }],
    ],
  );
  const [count] = describeAlone(controller.getMethodOrThrow('optionalNumber')).description.params;
  assert.deepEqual([count!.optional, count!.kind, count!.schema], [true, { kind: 'number' }, { type: 'number' }]);
});

test('functions, symbols and bigints degrade to {} with an SVC009 warning at the property', () => {
  const { description, warnings } = describeAlone(controller.getMethodOrThrow('unsupported'));
  const properties = description.returns.json!.properties as Record<string, unknown>;
  assert.deepEqual([properties.callback, properties.key, properties.big], [{}, {}, {}]);
  assert.deepEqual(
    warnings.map((w) => [w.code, w.severity, `${w.file}:${w.line}`]),
    Array(3).fill(['SVC009', 'warning', 'weave/Controllers/TypesController.ts:97']),
  );
  assert.match(warnings[0]!.text, /`\(\) => void`/);
});

test('nothing to return is a 204 and nothing else, whether void or Promise<void>', () => {
  for (const name of ['nothing', 'nothingLater']) assert.deepEqual(describeAlone(controller.getMethodOrThrow(name)).description.returns, { empty: true });
});

test('each type is walked once per build: handlers sharing a type share its schema', () => {
  const registry = new SchemaRegistry(new Reporter(fixture));
  const first = describeHandler(controller.getMethodOrThrow('arrays'), registry);
  const components = structuredClone(registry.components);
  const second = describeHandler(controller.getMethodOrThrow('arrays'), registry);
  assert.equal(second.returns.json, first.returns.json);
  assert.deepEqual(registry.components, components);
});

/** Handlers written inline for the cases that need their own source text. */
function inlineFile(name: string, text: string) {
  return project.createSourceFile(join(fixture, 'weave', `${name}.ts`), text, { overwrite: true });
}

test('two different types with one name get distinct components', () => {
  inlineFile('a', 'export interface Item { a: string }');
  inlineFile('b', 'export interface Item { b: number }');
  const file = inlineFile('both', `import type { Item as A } from './a.ts';\nimport type { Item as B } from './b.ts';\nexport const h = (): { a: A; b: B } => null!;`);
  const { description, components } = describeAlone(file.getVariableDeclarationOrThrow('h').getInitializerIfKindOrThrow(SyntaxKind.ArrowFunction));
  assert.deepEqual(description.returns.json!.properties, { a: { $ref: '#/components/schemas/Item' }, b: { $ref: '#/components/schemas/Item_2' } });
  assert.deepEqual(Object.keys(components), ['Item', 'Item_2']);
});

test('an endlessly expanding generic stops with a warning instead of looping', () => {
  const file = inlineFile('expanding', 'export type Deep<T> = { value: T; next: Deep<T[]> };\nexport function h(): Deep<number> { return null!; }');
  const { description, warnings } = describeAlone(file.getFunctionOrThrow('h'));
  assert.deepEqual(description.returns, { json: { $ref: '#/components/schemas/Deep_number_' } });
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!.text, /instantiates itself with new type arguments more than 10 levels deep/);
});

test('a long but finite chain of named types is described in full', () => {
  const chain = Array.from({ length: 40 }, (_, i) => `export interface Link${i} { next: Link${(i + 1) % 40}; n: ${i} }`).join('\n');
  const file = inlineFile('chain', `${chain}\nexport function h(): Link0 { return null!; }`);
  const { components, warnings } = describeAlone(file.getFunctionOrThrow('h'));
  assert.deepEqual(warnings, []);
  assert.equal(Object.keys(components).length, 40);
  assert.deepEqual(components.Link39, { type: 'object', properties: { next: { $ref: '#/components/schemas/Link0' }, n: { type: 'number', const: 39 } }, required: ['next', 'n'] });
});

test('a closure is documented by the JSDoc on its registration statement', () => {
  const file = inlineFile(
    'closure',
    [
      "import type { Router } from 'svc';",
      'export default (router: Router) => {',
      '  /**',
      '   * Find a post.',
      '   *',
      '   * Looks in the archive too.',
      '   * @param slug - The URL name of the post.',
      '   * @deprecated Use /articles/{slug}.',
      '   */',
      "  router.get('/posts/{slug}', (slug: string) => ({ slug }));",
      '};',
    ].join('\n'),
  );
  const closure = file.getDescendantsOfKind(SyntaxKind.ArrowFunction).at(-1)!;
  const { doc, params } = describeHandler(closure, new SchemaRegistry(new Reporter(fixture)));
  assert.deepEqual(doc, { summary: 'Find a post.', description: 'Looks in the archive too.', deprecated: true });
  assert.deepEqual(params[0]!.schema, { type: 'string', description: 'The URL name of the post.' });
});
