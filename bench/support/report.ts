// What every bench table needs: the machine line, medians and ratios, and a way to put
// the table into bench/README.md between its own markers, leaving other sections alone.
import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';

export function machine(): string {
  const all = cpus();
  return `${all.length} × ${all[0]?.model.trim() ?? 'unknown CPU'} (nproc ${all.length}), Node ${process.version}`;
}

export function median(values: readonly number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** `| a | b |` rows under a header; numbers are formatted by the caller. */
export function markdownTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>, align: readonly ('l' | 'r')[]): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  const rule = `|${align.map((a) => (a === 'r' ? '---:' : '---')).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

export const fixed = (value: number, digits = 0): string => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
export const thousands = (value: number): string => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'n/a');
export const ratio = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a');

/** Replaces the text between `<!-- bench:<name> results -->` and its closing marker (appended when missing). */
export async function writeReadmeSection(name: string, text: string): Promise<void> {
  const readme = new URL('../README.md', import.meta.url);
  const start = `<!-- bench:${name} results -->`;
  const end = `<!-- /bench:${name} results -->`;
  const current = await readFile(readme, 'utf8');
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  const block = `${start}\n${text}\n${end}`;
  const next = from >= 0 && to > from ? current.slice(0, from) + block + current.slice(to + end.length) : `${current.trimEnd()}\n\n${block}\n`;
  await writeFile(readme, next);
}
