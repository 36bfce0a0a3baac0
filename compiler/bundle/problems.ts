// esbuild's errors as svc diagnostics. The analysis catches syntax errors, missing
// packages and broken relative imports first (analyse/sources.ts, local-imports.ts);
// what still reaches esbuild is what only a bundler sees, such as an import inside a
// file the analysis does not read (a dynamic import, a plain .js file). esbuild's paths
// are relative to the project root, as ours are.
import type * as esbuild from 'esbuild';
import { error, type Diagnostic } from '../diagnostics.ts';
import { formatLocation } from '../locations.ts';
import type { SourceLocation } from '../ir.ts';

const IMPORT_PROBLEM = /^(Could not resolve|No matching export)/;

export function bundleProblems(failure: unknown): Diagnostic[] | null {
  const errors = (failure as Partial<esbuild.BuildFailure> | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return null;
  return errors.map((message) => {
    const code = IMPORT_PROBLEM.test(message.text) ? 'SVC011' : 'SVC010';
    const fix = code === 'SVC011' ? 'Correct the import, or create what it names.' : 'The file must compile before svc can bundle it.';
    return error(code, `${message.text}. ${fix}`, at(message.location), message.notes.map((note) => (note.location ? `${formatLocation(at(note.location))}: ${note.text}` : note.text)));
  });
}

/** Problems without a place (rare) are put on the generated entry, which imports everything. */
const at = (location: esbuild.Location | null): SourceLocation =>
  location ? { file: location.file, line: location.line, col: location.column + 1 } : { file: '.svc/entry.ts', line: 1, col: 1 };
