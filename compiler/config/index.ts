// svc.json → SvcConfig with defaults, and an SVC007 diagnostic for every problem:
// invalid JSON, unknown keys, wrong types, bad addresses, colliding paths. Each names
// the JSON path and points at its line and column.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { error, warning, type Diagnostic } from '../diagnostics.ts';
import type { SourceLocation } from '../ir.ts';
import { DEFAULT_CONFIG, type SvcConfig } from '../../runtime/config.ts';
import { svcJsonShape } from './shape.ts';
import { validate } from './validate.ts';
import { settle } from './cross-checks.ts';

export const CONFIG_FILE = 'svc.json';

export interface LoadedConfig {
  /** null only when svc.json is not valid JSON; otherwise defaults stand in for invalid values. */
  config: SvcConfig | null;
  diagnostics: Diagnostic[];
  /** Where each key and array item of svc.json is, by JSON path (`endpoints.docs`, `ip.whitelist[0]`). */
  locations: Record<string, SourceLocation>;
}

export async function loadConfig(root: string): Promise<LoadedConfig> {
  let text: string;
  try {
    text = await readFile(join(root, CONFIG_FILE), 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { config: structuredClone(DEFAULT_CONFIG), diagnostics: [], locations: {} };
    const problem = code === 'EISDIR' ? 'is a folder; it must be a JSON file' : `cannot be read (${code ?? (e as Error).message})`;
    return { config: null, diagnostics: [error('SVC007', `svc.json ${problem}`, { file: CONFIG_FILE, line: 1, col: 1 })], locations: {} };
  }
  return parseConfig(text);
}

export function parseConfig(source: string): LoadedConfig {
  // Editors hide a byte order mark, and so do the lines and columns reported here.
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const at = locator(text);
  const errors: ParseError[] = [];
  let tree: ReturnType<typeof parseTree>;
  try {
    tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  } catch (e) {
    // Nesting thousands deep overflows the parser's stack.
    if (!(e instanceof RangeError)) throw e;
    return { config: null, diagnostics: [error('SVC007', 'svc.json is nested too deeply to read', at(0))], locations: {} };
  }
  if (errors.length > 0 || tree === undefined) {
    const diagnostics = uniqueByOffset(errors).map((e) => error('SVC007', `svc.json is not valid JSON: ${parseErrorText(e)}`, at(e.offset)));
    return { config: null, diagnostics, locations: {} };
  }

  const diagnostics: Diagnostic[] = [];
  const locations: Record<string, SourceLocation> = {};
  const value = validate(tree, svcJsonShape, '', {
    error: (node, message, notes) => diagnostics.push(error('SVC007', message, at(node.offset), notes)),
    warning: (node, message) => diagnostics.push(warning('SVC007', message, at(node.offset))),
    place: (path, node) => (locations[path] = at(node.offset)),
  }) as SvcConfig & { $schema?: string };
  const { $schema: _, ...config } = value;
  diagnostics.push(...settle(config, locations, at(0)));
  return { config, diagnostics, locations };
}

/** Offset → 1-based line and column in svc.json. */
function locator(text: string): (offset: number) => SourceLocation {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  return (offset) => {
    let line = 0;
    while (line + 1 < lineStarts.length && lineStarts[line + 1] <= offset) line++;
    return { file: CONFIG_FILE, line: line + 1, col: offset - lineStarts[line] + 1 };
  };
}

function uniqueByOffset(errors: ParseError[]): ParseError[] {
  return errors.filter((e, i) => errors.findIndex((other) => other.offset === e.offset) === i);
}

const PARSE_ERRORS: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'malformed number',
  PropertyNameExpected: 'expected a key in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected ","',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: 'expected the end of the file',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'malformed number',
  InvalidUnicode: 'malformed \\u escape',
  InvalidEscapeCharacter: 'malformed escape sequence',
  InvalidCharacter: 'control character in a string',
};

const parseErrorText = (e: ParseError): string => PARSE_ERRORS[printParseErrorCode(e.error)] ?? printParseErrorCode(e.error);
