// What `svc tread` keeps between builds: each route file's analysis. An edit to route
// files only re-analyses those files; any other change (a controller, a model, a file
// added or removed, a route file that others import) may reach every route, so then the
// whole table is analysed again (with the type checker's project still warm).
import { dirname, join, resolve } from 'node:path';
import fg from 'fast-glob';
import { ts, type Project } from 'ts-morph';
import type { FileAnalysis } from './file.ts';
import { exists } from './relative-imports.ts';

export class FileCache {
  /** By project-relative route file. */
  private readonly files = new Map<string, FileAnalysis>();
  private listing = '';
  /** Relative imports that named no file at the last build (absolute): one written since, even outside routes/ and weave/, resolves what did not. */
  private missing: string[] = [];

  constructor(readonly root: string) {}

  get(file: string): FileAnalysis | undefined {
    return this.files.get(file);
  }

  set(file: string, analysis: FileAnalysis): void {
    this.files.set(file, analysis);
  }

  /**
   * Forgets what `changed` (absolute paths of project files re-read from disk) may have
   * made stale; everything when the project is new (`null`): nothing tells what changed.
   * Returns whether files came or went since the last build.
   */
  update(changed: string[] | null, routeFiles: string[], project: Project): boolean {
    const routePaths = new Map(routeFiles.map((file) => [join(this.root, file), file]));
    const listing = this.listFiles();
    const moved = listing !== this.listing || this.missing.some(exists);
    const local = changed !== null && !moved && changed.every((path) => routePaths.has(path) && !importedByOthers(project, path));
    this.listing = listing;
    if (!local) this.files.clear();
    for (const path of changed ?? []) this.files.delete(routePaths.get(path) ?? '');
    return changed !== null && moved;
  }

  /** Called once a build is analysed: the program then holds every file the routes reach, through imports too. */
  noteMissingImports(project: Project): void {
    const files = project.getProgram().compilerObject.getSourceFiles().filter((file) => !file.fileName.includes('/node_modules/'));
    this.missing = relativeImports(files).filter((path) => !exists(path));
  }

  /**
   * Every file a route can reach by convention or import; adding or removing one can
   * resolve what did not. Subfolders of routes/ too: a route file may import a helper or
   * a controller kept beside it (`routes/shared/…`).
   */
  private listFiles(): string {
    return fg.sync(['routes/**', 'weave/**'], { cwd: this.root, onlyFiles: true }).sort().join('\n');
  }
}

/** Whether another project file imports `path`. */
function importedByOthers(project: Project, path: string): boolean {
  const target = withoutExtension(path);
  const files = project.getSourceFiles().filter((file) => !file.isInNodeModules());
  return relativeImports(files.map((file) => file.compilerNode)).some((imported) => withoutExtension(imported) === target);
}

/** What the relative specifiers of `files` name, made absolute (read from the syntax: the program is not asked). */
function relativeImports(files: readonly ts.SourceFile[]): string[] {
  return files.flatMap((file) =>
    file.statements.flatMap((statement) => {
      const specifier = (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier;
      return specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.') ? [resolve(dirname(file.fileName), specifier.text)] : [];
    }),
  );
}

const withoutExtension = (path: string): string => path.replace(/\.[cm]?[jt]sx?$/, '');
