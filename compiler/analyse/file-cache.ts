// What `svc tread` keeps between builds: each route file's analysis. An edit to route
// files only re-analyses those files; any other change (a controller, a model, a file
// added or removed, a route file that others import) may reach every route, so then the
// whole table is analysed again (with the type checker's project still warm).
import { dirname, join, resolve } from 'node:path';
import fg from 'fast-glob';
import { ts, type Project } from 'ts-morph';
import type { FileAnalysis } from './file.ts';

export class FileCache {
  /** By project-relative route file. */
  private readonly files = new Map<string, FileAnalysis>();
  private listing = '';

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
    const moved = listing !== this.listing;
    const local = changed !== null && !moved && changed.every((path) => routePaths.has(path) && !importedByOthers(project, path));
    this.listing = listing;
    if (!local) this.files.clear();
    for (const path of changed ?? []) this.files.delete(routePaths.get(path) ?? '');
    return changed !== null && moved;
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

/** Whether another project file imports `path` (relative specifiers, read from the syntax: the program is not asked). */
function importedByOthers(project: Project, path: string): boolean {
  const target = withoutExtension(path);
  return project.getSourceFiles().some((file) => {
    if (file.isInNodeModules()) return false;
    const from = dirname(file.getFilePath());
    return file.compilerNode.statements.some((statement) => {
      const specifier = (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier;
      return !!specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.') && withoutExtension(resolve(from, specifier.text)) === target;
    });
  });
}

const withoutExtension = (path: string): string => path.replace(/\.[cm]?[jt]sx?$/, '');
