import { formatDiagnostics, sortDiagnostics, type Diagnostic } from '../diagnostics.ts';

/** The one place diagnostics reach the terminal: text on stderr, or JSON on stdout. */
export function printDiagnostics(diagnostics: readonly Diagnostic[], json: boolean): void {
  if (json) {
    console.log(JSON.stringify({ diagnostics: sortDiagnostics(diagnostics) }, null, 2));
    return;
  }
  if (diagnostics.length) console.error(formatDiagnostics(diagnostics));
}
