// Which application files each file reaches through its imports, read from the syntax
// (the program is not asked): the relative and tsconfig-aliased specifiers of import and
// export declarations, of `import x = require(…)`, of import types (`import('./x').T`)
// and `import()` calls, and `/// <reference path>`. `svc tread` uses it to tell which
// route files an edit can reach (file-cache.ts).
import { dirname, resolve } from 'node:path';
import { ts } from 'ts-morph';
import type { PathAliases } from './path-aliases.ts';

/** A path as imports name it: without its extension, which `./user.js` and `./user.ts` both drop. */
export const moduleKey = (path: string): string => path.replace(/(\.d)?\.[cm]?[jt]sx?$|\.json$/, '');

/** Stands in a closure for a file reached through a specifier this graph cannot follow (`#alias`). */
export const ANY_FILE = '*';

/**
 * The absolute paths that the relative specifiers of `file` name, as written, and those its
 * aliased ones may name (path-aliases.ts); `ANY_FILE` for a package-internal `#import`.
 */
export function localSpecifiers(file: ts.SourceFile, aliases: PathAliases): string[] {
  const paths: string[] = [];
  const add = (node: ts.Node | undefined): void => {
    if (!node || !ts.isStringLiteralLike(node)) return;
    if (node.text.startsWith('.') || node.text.startsWith('/')) paths.push(resolve(dirname(file.fileName), node.text));
    else if (node.text.startsWith('#')) paths.push(ANY_FILE);
    else paths.push(...aliases.tried(node.text));
  };
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) add(statement.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(statement) && ts.isExternalModuleReference(statement.moduleReference)) add(statement.moduleReference.expression);
  }
  // Only a file that writes `import(` can hold an import type or an `import()` call.
  if (file.text.includes('import(')) {
    const visit = (node: ts.Node): void => {
      if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
      else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0]);
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  for (const reference of file.referencedFiles) paths.push(resolve(dirname(file.fileName), reference.fileName));
  return paths;
}

/**
 * Whether a file's declarations can reach files that never import it: a script (no
 * import or export: its declarations are global where the package is CommonJS), a global
 * or module augmentation (`declare global`, `declare module 'svc'`) or a triple-slash
 * reference. An edit to one may change what any route means.
 */
export const reachesEveryFile = (file: ts.SourceFile): boolean =>
  !file.fileName.endsWith('.json') && (!ts.isExternalModule(file) || /\bdeclare\s+(global|module)\b|^\s*\/\/\/\s*<reference\b/m.test(file.text));

export class ImportGraph {
  /** By module key: the keys its specifiers name. */
  private readonly edges = new Map<string, string[]>();

  constructor(files: readonly ts.SourceFile[], aliases: PathAliases) {
    for (const file of files) this.edges.set(moduleKey(file.fileName), localSpecifiers(file, aliases).map(moduleKey));
  }

  /** Every key reachable from `starts`, themselves included. A folder's key reaches its index file. */
  closure(starts: Iterable<string>): Set<string> {
    const reached = new Set<string>();
    const queue = [...starts];
    while (queue.length > 0) {
      const key = queue.pop()!;
      for (const candidate of [key, `${key}/index`]) {
        if (reached.has(candidate)) continue;
        reached.add(candidate);
        queue.push(...(this.edges.get(candidate) ?? []));
      }
    }
    return reached;
  }
}
