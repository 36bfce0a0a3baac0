import { formatDiagnostics, sortDiagnostics, type Diagnostic } from '../diagnostics.ts';

/** The one place diagnostics reach the terminal: text on stderr, or JSON on stdout. */
export function printDiagnostics(diagnostics: readonly Diagnostic[], json: boolean): void {
  if (json) {
    console.log(JSON.stringify({ diagnostics: sortDiagnostics(diagnostics).map(jsonForm) }, null, 2));
    return;
  }
  if (diagnostics.length) console.error(formatDiagnostics(diagnostics));
}

/**
 * A diagnostic with the names of its printed form (`path:line:col - error SVCnnn: message`)
 * as well as those the compiler uses (`file`, `text`, as esbuild's messages have them), so
 * a script can read it by either.
 */
const jsonForm = (d: Diagnostic) => ({ code: d.code, severity: d.severity, path: d.file, line: d.line, col: d.col, message: d.text, notes: d.notes, file: d.file, text: d.text });
