// The application's imports of its own files (relative, or through a tsconfig.json alias)
// and of the framework (`'svc'`) as the bundler will resolve them: a file that is not
// there, or a name the module does not export. esbuild would find these too, but only once the analysis has passed; found here,
// they are printed with every other problem of the build. The messages are esbuild's, so
// a problem reads the same whichever finds it.
import { dirname, resolve } from 'node:path';
import { ts } from 'ts-morph';
import type { PathAliases } from './path-aliases.ts';
import type { Reporter } from './reporter.ts';

const FIX = 'Correct the import, or create what it names.';

/** esbuild's order for a specifier without an extension, then a folder's index file. */
const EXTENSIONS = ['.tsx', '.ts', '.jsx', '.js', '.css', '.json'];
/** TypeScript's convention, which esbuild follows: `./user.js` may name `./user.ts`. */
const SOURCE_FOR = { '.js': ['.ts', '.tsx'], '.jsx': ['.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'] } as Record<string, string[]>;

export class LocalImports {
  private readonly exports = new Map<ts.Symbol, Set<string>>();

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly reporter: Reporter,
    private readonly aliases: PathAliases,
  ) {}

  check(file: ts.SourceFile): void {
    for (const statement of file.statements) {
      if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement))) continue;
      const specifier = statement.moduleSpecifier;
      if (!specifier || !ts.isStringLiteral(specifier) || typeOnly(statement)) continue;
      const isRelative = specifier.text.startsWith('.');
      const framework = specifier.text === 'svc';
      // An alias none of whose targets exists is looked up as a package (sources.ts).
      if (!isRelative && !framework && this.aliases.resolve(specifier.text) === null) continue;
      if (isRelative && !exists(resolve(dirname(file.fileName), specifier.text))) {
        this.reporter.error('SVC011', `Could not resolve "${specifier.text}". ${FIX}`, specifier);
        continue;
      }
      const module = this.checker.getSymbolAtLocation(specifier);
      if (module === undefined) continue; // a file the program does not hold (plain JS, JSON): its exports are not known here
      const exported = this.exportsOf(module);
      for (const [name, node] of importedNames(statement)) {
        if (exported.has(name)) continue;
        if (framework) {
          const names = [...exported].filter((n) => n !== 'default').sort();
          this.reporter.error('SVC011', `No matching export in "svc" for import "${name}". Correct the import.`, node, [`svc exports ${names.join(', ')}`]);
          continue;
        }
        const target = this.reporter.relative(module.valueDeclaration?.getSourceFile().fileName ?? specifier.text);
        this.reporter.error('SVC011', `No matching export in "${target}" for import "${name}". ${FIX}`, node);
      }
    }
  }

  private exportsOf(module: ts.Symbol): Set<string> {
    let names = this.exports.get(module);
    if (names === undefined) {
      const file = module.valueDeclaration?.getSourceFile();
      const exported = file?.fileName.endsWith('.json') ? jsonExports(file.text) : this.checker.getExportsOfModule(module).map((symbol) => symbol.name);
      this.exports.set(module, (names = new Set(exported)));
    }
    return names;
  }
}

/** What esbuild's JSON loader exports: the whole value as the default, an object's top-level keys by name. */
function jsonExports(text: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return ['default']; // the syntax error is reported on its own (SVC010)
  }
  return ['default', ...(value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [])];
}

/** `import type …` and `export type … from` are erased before bundling. */
function typeOnly(statement: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  return ts.isImportDeclaration(statement) ? statement.importClause?.isTypeOnly === true : statement.isTypeOnly;
}

/** The names a statement takes from its module, each with the node to point at; type-only ones are left out. */
function importedNames(statement: ts.ImportDeclaration | ts.ExportDeclaration): Array<[string, ts.Node]> {
  const named: Array<[string, ts.Node]> = [];
  const elements = ts.isImportDeclaration(statement)
    ? statement.importClause?.namedBindings && ts.isNamedImports(statement.importClause.namedBindings)
      ? statement.importClause.namedBindings.elements
      : []
    : statement.exportClause && ts.isNamedExports(statement.exportClause)
      ? statement.exportClause.elements
      : [];
  if (ts.isImportDeclaration(statement) && statement.importClause?.name) named.push(['default', statement.importClause.name]);
  for (const element of elements) {
    if (element.isTypeOnly) continue;
    const name = element.propertyName ?? element.name;
    named.push([name.text, name]);
  }
  return named;
}

/** Whether esbuild would find a file for `path` (the specifier made absolute). */
export function exists(path: string): boolean {
  const { fileExists } = ts.sys;
  if (fileExists(path)) return true;
  const extension = /\.[cm]?[jt]sx?$/.exec(path)?.[0];
  if (extension && SOURCE_FOR[extension]?.some((source) => fileExists(path.slice(0, -extension.length) + source))) return true;
  return EXTENSIONS.some((ext) => fileExists(path + ext) || fileExists(`${path}/index${ext}`));
}
