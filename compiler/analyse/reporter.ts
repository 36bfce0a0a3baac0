// Where analysis problems are collected, and how a node becomes a `file:line:col`.
import { relative, sep } from 'node:path';
import { ts, type Node } from 'ts-morph';
import { error, type Diagnostic, type DiagnosticCode } from '../diagnostics.ts';
import type { SourceLocation } from '../ir.ts';

export class Reporter {
  readonly diagnostics: Diagnostic[] = [];

  constructor(readonly root: string) {}

  /** Project-relative, `/`-separated, so output is the same on every machine. */
  relative(absolutePath: string): string {
    return relative(this.root, absolutePath).split(sep).join('/');
  }

  at(node: Node): SourceLocation {
    const file = node.getSourceFile();
    // The compiler's own lookup uses its cached line map; ts-morph's rescans the text.
    const { line, character } = ts.getLineAndCharacterOfPosition(file.compilerNode, node.getStart());
    return { file: this.relative(file.getFilePath()), line: line + 1, col: character + 1 };
  }

  error(code: DiagnosticCode, text: string, node: Node, notes: string[] = []): void {
    this.diagnostics.push(error(code, text, this.at(node), notes));
  }
}

export const formatLocation = (loc: SourceLocation): string => `${loc.file}:${loc.line}:${loc.col}`;
