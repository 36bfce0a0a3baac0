// The code of the segment walk: nested blocks over the segment tree. At each depth the
// segment's end is found, the literal children are compared in place (length, then
// `startsWith`: nothing is allocated until a route answers), and when the literal branch
// does not return, control falls through to the placeholder branch: that is the
// backtracking, "literal before placeholder" at every position.
//
// A large subtree becomes a function of its own, so that every function stays small
// enough for V8 to optimise and for a person to read. Such a function returns either
// the answer or, when nothing below it answers, the methods of the routes that fit.
import { segmentStart, writeAnswer, type HelperUse } from './answers.ts';
import { byLength } from './by-length.ts';
import { CodeWriter } from './code-writer.ts';
import { bitsExpression, writeMethodSwitch } from './methods.ts';
import { hasChildren, type SegmentNode } from './segment-tree.ts';
import type { Shape } from './shapes.ts';
import { commentText, pascal, quote } from '../source-text.ts';

/** Shapes a function may hold inline before a subtree moves to a function of its own. */
const FUNCTION_WEIGHT = 16;

export interface SegmentWalk {
  /** The body of `matchSegments`. */
  body: string;
  /** The functions that subtrees moved to, each before those below it. */
  functions: string[];
}

/** Where the walk stands: `depth` segments read, placeholders at segments `captures`, `trail` the pattern so far. */
interface Position {
  depth: number;
  captures: number[];
  trail: string[];
}

export function emitSegmentWalk(tree: SegmentNode, uses: HelperUse): SegmentWalk {
  const walk = new Walk(uses);
  walk.weigh(tree);
  const w = new CodeWriter(1);
  walk.descend(w, tree, { depth: 0, captures: [], trail: [] });
  return { body: w.toString(), functions: walk.functions };
}

class Walk {
  readonly functions: string[] = [];
  /** The names of functions a subtree's could clash with: templates/dispatcher.hbs defines these. */
  private readonly names = new Set(['match', 'matchCanonical', 'matchSegments']);
  private readonly weights = new Map<SegmentNode, number>();
  private readonly ownFunction = new Set<SegmentNode>();

  constructor(private readonly uses: HelperUse) {}

  /** The path goes on after segment `at.depth`: read the next segment and try the children. */
  descend(w: CodeWriter, node: SegmentNode, at: Position): void {
    const next = at.depth + 1;
    const start = segmentStart(next);
    if (next > 1) w.line(`const ${start} = end${at.depth} + 1;`);
    w.line(`const end${next} = segmentEnd(path, ${start});`);
    const literals = [...node.literals];
    const literalAt = (value: string): Position => ({ ...at, depth: next, trail: [...at.trail, value] });
    if (literals.length === 1) {
      const [[value, child]] = literals;
      const test = `end${next} - ${start} === ${value.length} && path.startsWith(${quote(value)}, ${start})`;
      w.block(`if (${test}) {`, () => this.writeNode(w, child, literalAt(value)));
    } else if (literals.length > 1) {
      w.block(`switch (end${next} - ${start}) {`, () => {
        for (const [length, group] of byLength(literals)) {
          w.line(`case ${length}:`);
          w.indented(() => {
            for (const [value, child] of group) {
              w.block(`if (path.startsWith(${quote(value)}, ${start})) {`, () => this.writeNode(w, child, literalAt(value)));
            }
            w.line('break;');
          });
        }
      });
    }
    if (node.placeholder) {
      const names = [...node.placeholderNames].map((name) => `{${name}}`);
      w.line(`// ${commentText(names.join(' or '))}`);
      this.writeNode(w, node.placeholder, { depth: next, captures: [...at.captures, next], trail: [...at.trail, names[0]] });
    }
  }

  /** The node reached with segment `at.depth`: answer if the path ends there, else go deeper. */
  private writeNode(w: CodeWriter, node: SegmentNode, at: Position): void {
    if (this.ownFunction.has(node)) this.writeCall(w, node, at);
    else this.writeBody(w, node, at);
  }

  private writeBody(w: CodeWriter, node: SegmentNode, at: Position): void {
    const descend = () => this.descend(w, node, at);
    const ended = `end${at.depth} === path.length`;
    if (node.ends.length === 0) {
      w.block(`if (end${at.depth} !== path.length) {`, descend);
    } else if (!hasChildren(node)) {
      w.block(`if (${ended}) {`, () => this.writeEnds(w, node.ends, at));
    } else {
      w.block(`if (${ended}) {`, () => this.writeEnds(w, node.ends, at), '} else {');
      w.indented(descend);
      w.line('}');
    }
  }

  private writeEnds(w: CodeWriter, ends: Shape[], at: Position): void {
    const methods = writeMethodSwitch(w, ends, (shape, labels) => writeAnswer(w, shape, at.captures, labels, this.uses));
    w.line(`allowed |= ${bitsExpression(methods)};`);
  }

  private writeCall(w: CodeWriter, node: SegmentNode, at: Position): void {
    const name = this.uniqueName(at.trail);
    const args = indexesNeeded(at);
    const answer = `answer${at.depth}`;
    w.line(`const ${answer} = ${name}(method, path, ${args.join(', ')});`);
    w.line(`if (typeof ${answer} !== 'number') return ${answer};`);
    w.line(`allowed |= ${answer};`);

    const slot = this.functions.push('') - 1; // before the functions of its own subtrees
    const f = new CodeWriter();
    f.line(`/** Paths below /${commentText(at.trail.join('/'))}: the answer, or the methods of the routes that fit but not the method. */`);
    const params = args.map((arg) => `${arg}: number`).join(', ');
    f.block(`function ${name}(method: string, path: string, ${params}): Match | number {`, () => {
      f.line('let allowed = 0;');
      this.writeBody(f, node, at);
      f.line('return allowed;');
    });
    this.functions[slot] = f.toString();
  }

  /**
   * Shapes written inline for `node`, its own ends plus its children's, once the heaviest
   * children have moved to functions of their own (counting one each) until it fits.
   */
  weigh(node: SegmentNode): number {
    let weight = this.weights.get(node);
    if (weight === undefined) {
      const children = [...node.literals.values(), ...(node.placeholder ? [node.placeholder] : [])]
        .map((child) => [child, this.weigh(child)] as const)
        .sort(([, a], [, b]) => b - a);
      weight = node.ends.length + children.reduce((sum, [, w]) => sum + w, 0);
      for (const [child, w] of children) {
        if (weight <= FUNCTION_WEIGHT || w <= 1) break;
        this.ownFunction.add(child);
        weight -= w - 1;
      }
      this.weights.set(node, weight);
    }
    return weight;
  }

  /** `matchReposOwnerRepo` for /repos/{owner}/{repo}. */
  private uniqueName(trail: string[]): string {
    const base = `match${pascal(trail.join(' '))}`;
    let name = base;
    for (let n = 2; this.names.has(name); n++) name = `${base}${n}`;
    this.names.add(name);
    return name;
  }
}

/** What a function for the subtree at `at` needs: where its placeholders' segments start and end, and where the last one read ends. */
function indexesNeeded(at: Position): string[] {
  const needed = at.captures.flatMap((n) => (n === 1 ? ['end1'] : [`start${n}`, `end${n}`]));
  return [...new Set([...needed, `end${at.depth}`])];
}
