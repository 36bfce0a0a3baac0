// What an error page calls that it does not have. Pages render with Handlebars' own
// helpers and no partials (runtime/errors/pages.ts), so `{{format detail}}` or
// `{{> footer}}` parses and then throws on the first error it should show: the server
// then falls back to the next page. The build says so first, at the call.
import Handlebars from 'handlebars';

/**
 * Handlebars' built-in helpers, the only ones a page has, and what each must be given.
 * They are called wherever their name heads a `{{…}}`, with parameters or without.
 */
const HELPERS = new Map<string, (call: Call) => string | null>([
  ...['if', 'unless', 'each', 'with'].map((name) => [name, blockOfOne(name)] as const),
  ['lookup', (call) => (call.params.length === 2 ? null : '"lookup" takes exactly two values: {{lookup object key}}.')],
  ['log', () => null],
]);

function blockOfOne(name: string): (call: Call) => string | null {
  return (call) => (call.type === 'BlockStatement' && call.params.length === 1 ? null : `"${name}" needs a block and exactly one value: {{#${name} value}}…{{/${name}}}.`);
}

export interface PageCall {
  /** 1-based. */
  line: number;
  col: number;
  text: string;
}

/** The calls in `ast` that would throw as the page renders, in source order. */
export function missingCalls(ast: hbs.AST.Program): PageCall[] {
  const inline = new InlinePartials();
  inline.accept(ast);
  const calls = new Calls(inline.names);
  calls.accept(ast);
  return calls.found.sort((a, b) => a.line - b.line || a.col - b.col);
}

type Call = hbs.AST.MustacheStatement | hbs.AST.BlockStatement | hbs.AST.SubExpression;

const nameOf = (node: hbs.AST.Expression): string | null =>
  node.type === 'PathExpression' ? (node as hbs.AST.PathExpression).original : node.type.endsWith('Literal') ? String((node as hbs.AST.StringLiteral).value) : null;

const at = (node: hbs.AST.Node): Omit<PageCall, 'text'> => ({ line: node.loc.start.line, col: node.loc.start.column + 1 });

/** The partials the page defines itself (`{{#*inline "name"}}`): those a `{{> name}}` may use. */
class InlinePartials extends Handlebars.Visitor {
  readonly names = new Set<string>();

  override DecoratorBlock(block: hbs.AST.DecoratorBlock): void {
    const [name] = block.params;
    if (block.path.original === 'inline' && name) this.names.add(String(nameOf(name)));
    super.DecoratorBlock(block);
  }
}

class Calls extends Handlebars.Visitor {
  readonly found: PageCall[] = [];

  constructor(private readonly partials: ReadonlySet<string>) {
    super();
  }

  override MustacheStatement(mustache: hbs.AST.MustacheStatement): void {
    this.helper(mustache);
    super.MustacheStatement(mustache);
  }

  override BlockStatement(block: hbs.AST.BlockStatement): void {
    this.helper(block);
    super.BlockStatement(block);
  }

  override SubExpression(sexpr: hbs.AST.SubExpression): void {
    this.helper(sexpr);
    super.SubExpression(sexpr);
  }

  override PartialStatement(partial: hbs.AST.PartialStatement): void {
    const name = nameOf(partial.name);
    if (name === null ? this.partials.size === 0 : !this.partials.has(name)) {
      const text =
        name === null
          ? 'a partial chosen as the page renders, in a page that defines none: error pages have no partials but the inline ones they define ({{#*inline "name"}}…{{/inline}}).'
          : `the partial "${name}" does not exist: error pages have no partials but the inline ones they define. Define it in the page ({{#*inline "${name}"}}…{{/inline}}), or write the markup in its place.`;
      this.found.push({ ...at(partial), text });
    }
    super.PartialStatement(partial);
  }

  // `{{#> layout}}fallback{{/layout}}` renders its own content when there is no such partial: it cannot fail.

  override Decorator(decorator: hbs.AST.Decorator): void {
    this.decorator(decorator);
    super.Decorator(decorator);
  }

  override DecoratorBlock(block: hbs.AST.DecoratorBlock): void {
    this.decorator(block);
    super.DecoratorBlock(block);
  }

  // `{{name}}`, `{{#name}}` and `(name)` without parameters read a value, unless a built-in helper has that name.
  private helper(call: Call): void {
    const name = nameOf(call.path);
    if (name === null) return;
    const usage = HELPERS.get(name);
    const text = usage
      ? usage(call)
      : call.params.length === 0
        ? null
        : `unknown helper "${name}": error pages have only Handlebars' own helpers (${[...HELPERS.keys()].join(', ')}). Show the value as it is ({{detail}}), or shape it where the error is raised.`;
    if (text !== null) this.found.push({ ...at(call.path), text });
  }

  private decorator(decorator: hbs.AST.Decorator | hbs.AST.DecoratorBlock): void {
    const name = nameOf(decorator.path);
    if (name !== 'inline') this.found.push({ ...at(decorator.path), text: `unknown decorator "${name}": error pages have only Handlebars' inline partials ({{#*inline "name"}}).` });
  }
}
