// The application's error pages (weave/Views/errors/, shoebox/views/) parse as Handlebars
// and call nothing they do not have, or the build says where they do not (SVC010): the
// server compiles them when it starts, and a page that does not parse would otherwise stop
// it there; one that calls a missing helper would fail on the first error it should show.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { PAGE_FILE } from '../../runtime/errors/pages.ts';
import { readRegularFileSync } from '../../runtime/shoebox/regular-file.ts';
import { missingCalls } from './error-page-calls.ts';
import type { Reporter } from './reporter.ts';

const FOLDERS = [join('weave', 'Views', 'errors'), join('shoebox', 'views')];

export function checkErrorPages(reporter: Reporter): void {
  for (const folder of FOLDERS) {
    for (const name of pageNames(join(reporter.root, folder))) {
      const path = join(reporter.root, folder, name);
      const file = reporter.relative(path);
      let source: string;
      try {
        source = readRegularFileSync(path).toString('utf8'); // a FIFO used to hold the build up for ever
      } catch (e) {
        const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
        reporter.error('SVC010', `the error page cannot be read (${why}). Make it a readable file, or remove it.`, { file, line: 1, col: 1 });
        continue;
      }
      let ast: hbs.AST.Program;
      try {
        ast = Handlebars.parse(source);
      } catch (e) {
        const expected = (e as Error).message.split('\n').at(-1)!.replace(/ - \d+:\d+$/, '');
        reporter.error('SVC010', `syntax error in a Handlebars page: ${expected}. The page must parse before the server can use it.`, { file, ...syntaxErrorAt(e) });
        continue;
      }
      for (const { text, line, col } of missingCalls(ast)) reporter.error('SVC010', text, { file, line, col });
    }
  }
}

/** Handlebars' lexer, which its types leave out. */
type Lexer = { yylloc: { first_line: number; first_column: number } };

/**
 * Where a page stops parsing, 1-based. A block closed under another name is Handlebars'
 * own Exception, which carries its position (0-based column); any other parse error leaves
 * the shared parser's lexer on the token it could not take.
 */
function syntaxErrorAt(e: unknown): { line: number; col: number } {
  const { lineNumber, column } = e as { lineNumber?: number; column?: number };
  if (lineNumber !== undefined) return { line: lineNumber, col: (column ?? 0) + 1 };
  const at = (Handlebars as unknown as { Parser: { lexer: Lexer } }).Parser.lexer.yylloc;
  return { line: at.first_line, col: at.first_column + 1 };
}

function pageNames(folder: string): string[] {
  try {
    return readdirSync(folder).filter((name) => PAGE_FILE.test(name)).sort();
  } catch {
    return []; // no such folder: no pages of the application's own
  }
}
