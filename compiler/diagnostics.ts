// One structured message type for every problem the compiler reports, printed in
// one place. Codes are the contract of SPEC §3; `text` says what is wrong and how to fix it.
import { escapeControl } from '../runtime/shoebox/log.ts';
import { compareText } from './text-order.ts';

export type DiagnosticCode =
  | 'SVC001' | 'SVC002' | 'SVC003' | 'SVC004' | 'SVC005' | 'SVC006' | 'SVC007' | 'SVC008' | 'SVC009'
  | 'SVC010' | 'SVC011' | 'SVC012' | 'SVC013';

export interface Diagnostic {
  code: DiagnosticCode;
  severity: 'error' | 'warning';
  text: string;
  /** Project-relative path. */
  file: string;
  line: number;
  col: number;
  notes: string[];
}

export function error(code: DiagnosticCode, text: string, at: { file: string; line: number; col: number }, notes: string[] = []): Diagnostic {
  return { code, severity: 'error', text, file: at.file, line: at.line, col: at.col, notes };
}

export function warning(code: DiagnosticCode, text: string, at: { file: string; line: number; col: number }, notes: string[] = []): Diagnostic {
  return { code, severity: 'warning', text, file: at.file, line: at.line, col: at.col, notes };
}

export const hasErrors = (diagnostics: readonly Diagnostic[]): boolean => diagnostics.some((d) => d.severity === 'error');

/** Stable order: by file, then position, then code, so output is reproducible. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) => compareText(a.file, b.file) || a.line - b.line || a.col - b.col || compareText(a.code, b.code),
  );
}

/** `path:line:col - error SVCnnn: message`, notes indented below. */
export function formatDiagnostic(d: Diagnostic): string {
  const head = `${d.file}:${d.line}:${d.col} - ${d.severity} ${d.code}: ${d.text}`;
  return [head, ...d.notes.map((note) => `    ${note}`)].map(visible).join('\n');
}

/**
 * Messages quote the application's strings, which may hold control characters (`'/a\0b'`):
 * printed raw, a NUL vanishes and an ESC drives the terminal. Shown as `\u0000`, as
 * `svc route list` and the log show them; `--json` escapes them its own way.
 */
const visible = (line: string): string => line.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, escapeControl);

export function formatDiagnostics(diagnostics: readonly Diagnostic[]): string {
  return sortDiagnostics(diagnostics).map(formatDiagnostic).join('\n');
}
