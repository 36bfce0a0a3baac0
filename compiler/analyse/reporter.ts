// Where analysis problems are collected, and how a node becomes a `file:line:col`.
import { relative, sep } from 'node:path';
import { Node, ts } from 'ts-morph';
import { error, warning, type Diagnostic, type DiagnosticCode } from '../diagnostics.ts';
import type { SourceLocation } from '../ir.ts';

export class Reporter {
  readonly diagnostics: Diagnostic[] = [];

  constructor(readonly root: string) {}

  /** Project-relative, `/`-separated, so output is the same on every machine. */
  relative(absolutePath: string): string {
    return relative(this.root, absolutePath).split(sep).join('/');
  }

  /** A ts-morph node, or a compiler node (the schema walk works on the checker's own). */
  at(node: Node | ts.Node): SourceLocation {
    const compilerNode = node instanceof Node ? node.compilerNode : node;
    const file = compilerNode.getSourceFile();
    return this.atOffset(file, compilerNode.getStart(file));
  }

  atOffset(file: ts.SourceFile, offset: number): SourceLocation {
    // The compiler's own lookup uses its cached line map; ts-morph's rescans the text.
    const { line, character } = ts.getLineAndCharacterOfPosition(file, offset);
    return { file: this.relative(file.fileName), line: line + 1, col: character + 1 };
  }

  error(code: DiagnosticCode, text: string, at: Node | ts.Node | SourceLocation, notes: string[] = []): void {
    this.diagnostics.push(error(code, text, 'line' in at ? at : this.at(at), notes));
  }

  warn(code: DiagnosticCode, text: string, at: Node | ts.Node | SourceLocation, notes: string[] = []): void {
    this.diagnostics.push(warning(code, text, 'line' in at ? at : this.at(at), notes));
  }
}

