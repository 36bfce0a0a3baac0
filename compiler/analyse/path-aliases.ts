// The application's tsconfig.json `paths` (`"@/*": ["./weave/*"]`). TypeScript, esbuild
// and tsx all resolve them, so the analysis does too: the type checker gets them as
// compiler options (project.ts), and the checks and the import graph, which read
// specifiers themselves, map them here. Only `paths` is taken from the file; the other
// options stay svc's own, so that the analysis reads the application as the bundle runs it.
import { join, resolve } from 'node:path';
import { ts } from 'ts-morph';
import { exists } from './local-imports.ts';
import type { Reporter } from './reporter.ts';
import type { SourceLocation } from '../ir.ts';

interface Alias {
  /** The pattern as written, `@/*`. */
  pattern: string;
  /** What a specifier must start and end with; `suffix` is null for a pattern without `*`, matched whole. */
  prefix: string;
  suffix: string | null;
  /** Absolute, each with the `*` the matched text replaces. */
  targets: string[];
}

interface Lookup {
  /** The targets up to the first that exists, all when none does. */
  tried: string[];
  found: string | null;
}

const NOT_MAPPED: Lookup = { tried: [], found: null };

export class PathAliases {
  /** Identity of the mapping: a project built with other aliases resolved its imports otherwise. */
  readonly key: string;
  /** By specifier, for one build (files come and go between builds): the checks and the import graph ask about the same imports. */
  private readonly lookups = new Map<string, Lookup>();

  constructor(private readonly aliases: readonly Alias[]) {
    this.key = JSON.stringify(aliases.map(({ pattern, targets }) => [pattern, targets]));
  }

  /** For the type checker: the patterns with their targets absolute, which needs no base path. */
  compilerPaths(): Record<string, string[]> {
    return Object.fromEntries(this.aliases.map(({ pattern, targets }) => [pattern, targets]));
  }

  /** The file `specifier` names through an alias, absolute; null when no alias maps it or none of its targets exists (TypeScript then looks for a package). */
  resolve(specifier: string): string | null {
    return this.lookup(specifier).found;
  }

  /** The targets of `specifier` up to the first that exists, all when none does: a file written at one of them changes what the import names. */
  tried(specifier: string): string[] {
    return this.lookup(specifier).tried;
  }

  private lookup(specifier: string): Lookup {
    if (this.aliases.length === 0) return NOT_MAPPED;
    let known = this.lookups.get(specifier);
    if (known === undefined) {
      const candidates = this.candidates(specifier);
      const at = candidates.findIndex(exists);
      known = at === -1 ? { tried: candidates, found: null } : { tried: candidates.slice(0, at + 1), found: candidates[at]! };
      this.lookups.set(specifier, known);
    }
    return known;
  }

  /**
   * The absolute paths `specifier` maps to, in the order TypeScript tries them. Empty when
   * no pattern matches (a package, a relative path).
   */
  private candidates(specifier: string): string[] {
    const alias = this.match(specifier);
    if (alias === undefined) return [];
    if (alias.suffix === null) return alias.targets;
    const star = specifier.slice(alias.prefix.length, specifier.length - alias.suffix.length);
    return alias.targets.map((target) => target.replace('*', star));
  }

  /** The pattern that maps `specifier`, as written, for messages. */
  patternOf(specifier: string): string | undefined {
    return this.match(specifier)?.pattern;
  }

  /** As TypeScript picks: a pattern without `*` equal to the specifier, else the matching pattern with the longest prefix. */
  private match(specifier: string): Alias | undefined {
    let best: Alias | undefined;
    for (const alias of this.aliases) {
      if (alias.suffix === null) {
        if (alias.pattern === specifier) return alias;
      } else if (fits(alias.prefix, alias.suffix, specifier) && alias.prefix.length > (best?.prefix.length ?? -1)) best = alias;
    }
    return best;
  }
}

const fits = (prefix: string, suffix: string, specifier: string): boolean =>
  specifier.length >= prefix.length + suffix.length && specifier.startsWith(prefix) && specifier.endsWith(suffix);

export const NO_ALIASES = new PathAliases([]);

/**
 * `paths` of `tsconfig.json` in the project's root, `extends` followed. A file that does not
 * parse is SVC010, as tsc and esbuild would refuse it too. `svc` itself is left out: the
 * analysis resolves it to the framework it builds with, as the bundle does.
 */
export function readPathAliases(root: string, reporter: Reporter): PathAliases {
  const path = join(root, 'tsconfig.json');
  if (!ts.sys.fileExists(path)) return NO_ALIASES;
  const read = ts.readConfigFile(path, ts.sys.readFile);
  if (read.error !== undefined) {
    const { file, start = 0, messageText } = read.error;
    const message = ts.flattenDiagnosticMessageText(messageText, ' ');
    const at = file ? reporter.atOffset(file, start) : { file: 'tsconfig.json', line: 1, col: 1 };
    reporter.error('SVC010', `syntax error: ${message} svc reads the file's compilerOptions.paths; it must parse, as it must for tsc.`, at);
    return NO_ALIASES;
  }
  // No folder is listed: only the options are wanted, not the files `include` names.
  const host: ts.ParseConfigHost = { ...ts.sys, readDirectory: () => [] };
  const { options } = ts.parseJsonConfigFileContent(read.config, host, root, undefined, path);
  const base = options.baseUrl ?? (options['pathsBasePath'] as string | undefined) ?? root;
  const aliases: Alias[] = [];
  // Unchecked so far: TypeScript checks the entries' shape only when it builds a program.
  for (const [pattern, targets] of Object.entries(options.paths ?? {}) as Array<[string, unknown]>) {
    const star = pattern.indexOf('*');
    // TypeScript refuses a pattern with two stars, and ignores it.
    if (pattern === 'svc' || pattern.startsWith('svc/') || pattern.indexOf('*', star + 1) !== -1) continue;
    if (!Array.isArray(targets) || targets.length === 0 || !targets.every((target) => typeof target === 'string')) {
      const what = Array.isArray(targets) && targets.length === 0 ? 'is an empty list' : `is ${JSON.stringify(targets)}`;
      reporter.error('SVC010', `compilerOptions.paths entry "${pattern}" ${what}; it must list the paths it maps to, as in "@/*": ["./weave/*"], as tsc requires.`, pathsEntryAt(path, pattern, reporter));
      continue;
    }
    aliases.push({
      pattern,
      prefix: star === -1 ? pattern : pattern.slice(0, star),
      suffix: star === -1 ? null : pattern.slice(star + 1),
      targets: targets.map((target) => resolve(base, target)),
    });
  }
  return new PathAliases(aliases);
}

/**
 * The entry `pattern` of tsconfig.json's `paths`; else `paths` itself (a list has no
 * entries by name); else the file's `extends`, which brought the entry in; else its start.
 */
function pathsEntryAt(path: string, pattern: string, reporter: Reporter): SourceLocation {
  const file = ts.parseJsonText(path, ts.sys.readFile(path) ?? '');
  const property = (object: ts.Node | undefined, name: string): ts.PropertyAssignment | undefined =>
    object && ts.isObjectLiteralExpression(object)
      ? object.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && ts.isStringLiteral(p.name) && p.name.text === name)
      : undefined;
  const top = file.statements[0]?.expression;
  const paths = property(property(top, 'compilerOptions')?.initializer, 'paths');
  const found = property(paths?.initializer, pattern) ?? paths ?? property(top, 'extends');
  return reporter.atOffset(file, found ? found.initializer.getStart(file) : 0);
}
