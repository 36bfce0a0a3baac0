// TypeScript's parser and checker recurse once per level of nesting, so a file nested a
// few hundred levels deep (groups in groups, brackets in brackets) overflows the stack,
// in tsc as here. The analysis then cannot say where it was; this finds the deepest point
// of the project's own files with the scanner, which does not recurse.
import { readFileSync } from 'node:fs';
import fg from 'fast-glob';
import { ts } from 'ts-morph';
import { error, type Diagnostic } from '../diagnostics.ts';

const OPEN = new Set([ts.SyntaxKind.OpenParenToken, ts.SyntaxKind.OpenBracketToken, ts.SyntaxKind.OpenBraceToken, ts.SyntaxKind.TemplateHead]);
const CLOSE = new Set([ts.SyntaxKind.CloseParenToken, ts.SyntaxKind.CloseBracketToken, ts.SyntaxKind.CloseBraceToken]);

/** SVC010 at the most deeply nested point of the project's TypeScript files (the first route file's start when none nests). */
export function tooDeep(root: string, routeFiles: string[]): Diagnostic {
  let deepest = { file: routeFiles[0] ?? 'routes', depth: 0, line: 1, col: 1 };
  const files = fg.sync('**/*.{ts,mts,cts}', { cwd: root, ignore: ['**/node_modules/**', '.svc/**', 'shoebox/**', '**/*.d.ts'], onlyFiles: true });
  for (const file of files.sort()) {
    let text: string;
    try {
      text = readFileSync(`${root}/${file}`, 'utf8');
    } catch {
      continue;
    }
    const found = deepestPoint(text);
    if (found.depth > deepest.depth) deepest = { file, ...found };
  }
  const { file, depth, line, col } = deepest;
  return error('SVC010', `nested ${depth} levels deep here, more than TypeScript's parser can follow (it runs out of stack, in tsc too); split the expression or the groups into flatter code.`, { file, line, col });
}

function deepestPoint(text: string): { depth: number; line: number; col: number } {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  // What each open level is, so that the `}` ending a template's `${…}` resumes the template.
  const open: ts.SyntaxKind[] = [];
  let deepest = { depth: 0, offset: 0 };
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.CloseBraceToken && open.at(-1) === ts.SyntaxKind.TemplateHead) kind = scanner.reScanTemplateToken(false);
    if (OPEN.has(kind)) {
      open.push(kind);
      if (open.length > deepest.depth) deepest = { depth: open.length, offset: scanner.getTokenStart() };
    } else if (CLOSE.has(kind) || kind === ts.SyntaxKind.TemplateTail) open.pop();
  }
  // The line breaks TypeScript counts (Reporter.atOffset).
  const lines = text.slice(0, deepest.offset).split(/\r\n|[\r\n\u2028\u2029]/);
  return { depth: deepest.depth, line: lines.length, col: lines.at(-1)!.length + 1 };
}
