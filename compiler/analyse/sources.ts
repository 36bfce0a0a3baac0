// The application's own source files as the bundler will meet them: each must parse, and
// each npm package it imports must be installed. TypeScript's parser recovers from a
// syntax error and the bundle leaves packages for Node to load at run time, so without
// these checks a broken file would stop esbuild with a stack trace, and a missing
// package would only show when `svc serve` starts.
//   SVC010  where the parser found the error
//   SVC011  the module specifier of the import (relative and aliased ones: local-imports.ts;
//           an alias with no file at its targets and no package of that name: here)
import { builtinModules } from 'node:module';
import { dirname } from 'node:path';
import { ts, type Project } from 'ts-morph';
import { frameworkDependencies, frameworkRuntime } from '../framework.ts';
import { installedPackages } from '../packages.ts';
import { LocalImports } from './local-imports.ts';
import type { PathAliases } from './path-aliases.ts';
import type { Reporter } from './reporter.ts';

export function checkSources(project: Project, reporter: Reporter, aliases: PathAliases): void {
  const program = project.getProgram().compilerObject;
  const packages = new InstalledPackages();
  const localImports = new LocalImports(program.getTypeChecker(), reporter, aliases);
  for (const file of program.getSourceFiles()) {
    // Declaration files hold only types: esbuild never reads them.
    if (file.isDeclarationFile || !isApplicationFile(file.fileName, reporter.root)) continue;
    for (const problem of program.getSyntacticDiagnostics(file)) {
      const message = ts.flattenDiagnosticMessageText(problem.messageText, ' ');
      reporter.error('SVC010', `syntax error: ${message} The file must parse before svc can read or bundle it.`, reporter.atOffset(file, problem.start ?? 0));
    }
    localImports.check(file);
    for (const specifier of runtimeImports(file)) {
      const name = packageName(specifier.text);
      if (name === null || aliases.resolve(specifier.text) !== null || packages.reachable(name, file.fileName)) continue;
      const alias = aliases.patternOf(specifier.text);
      if (alias === undefined) reporter.error('SVC011', `cannot find package '${name}': install it (npm install ${name}) or correct the import.`, specifier);
      else {
        const targets = aliases.tried(specifier.text).map((path) => reporter.relative(path)).join(' or ');
        reporter.error('SVC011', `Could not resolve "${specifier.text}": tsconfig.json's paths entry "${alias}" maps it to ${targets}, where no file is. Correct the import, or create what it names.`, specifier);
      }
    }
  }
}

/** The project's own files: not packages, and not svc's runtime when the project is svc's own demo. */
function isApplicationFile(fileName: string, root: string): boolean {
  return fileName.startsWith(`${root.replaceAll('\\', '/')}/`) && !fileName.includes('/node_modules/') && !fileName.startsWith(frameworkRuntime);
}

/** Module specifiers that survive into the bundle: `import type` and type positions are erased. */
function runtimeImports(file: ts.SourceFile): ts.StringLiteralLike[] {
  // `imports` is the list the program resolved, dynamic `import()` calls included.
  const imports = (file as ts.SourceFile & { imports?: readonly ts.StringLiteralLike[] }).imports ?? [];
  return imports.filter(({ parent }) => {
    if (ts.isImportDeclaration(parent)) return !parent.importClause?.isTypeOnly;
    if (ts.isExportDeclaration(parent)) return !parent.isTypeOnly;
    return ts.isCallExpression(parent) || ts.isExternalModuleReference(parent);
  });
}

/** `lodash/fp` → `lodash`, `@scope/pkg/x` → `@scope/pkg`; null for what is not a package (relative, `node:`, `#imports`, URLs) or is svc itself. */
function packageName(specifier: string): string | null {
  if (/^[./#]|:/.test(specifier) || builtinModules.includes(specifier)) return null;
  const name = specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
  return name === 'svc' ? null : name;
}

/** Whether a file's import of a package works at run time. svc's own dependencies always do: the bundle imports svc's copies when need be. */
class InstalledPackages {
  private readonly framework = new Set(frameworkDependencies());
  /** By folder: the files of one folder see the same node_modules folders. */
  private readonly byFolder = new Map<string, (name: string) => boolean>();

  reachable(name: string, fromFile: string): boolean {
    if (this.framework.has(name)) return true;
    const folder = dirname(fromFile);
    let installed = this.byFolder.get(folder);
    if (!installed) this.byFolder.set(folder, (installed = installedPackages(fromFile)));
    return installed(name);
  }
}
