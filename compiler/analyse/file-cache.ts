// What `svc tread` keeps between builds: each route file's analysis, and the files that
// analysis may have read (the route file, what it imports, the controllers and
// middleware it names by string, and what those import, import-graph.ts). An edit
// re-analyses only the route files that can reach an edited file; a file added or
// removed, or one whose declarations reach every file (a script, `declare global`), may
// change any route, so then the whole table is analysed again (with the type checker's
// project still warm). A route file analysed again takes the controller handlers whose
// files did not change from handler-cache.ts.
import { join, sep } from 'node:path';
import fg from 'fast-glob';
import type { Project } from 'ts-morph';
import type { FileAnalysis } from './file.ts';
import { HandlerCache } from './handler-cache.ts';
import { ANY_FILE, ImportGraph, localSpecifiers, moduleKey, reachesEveryFile } from './import-graph.ts';
import { exists } from './local-imports.ts';
import type { PathAliases } from './path-aliases.ts';

export class FileCache {
  /** By project-relative route file. */
  private readonly files = new Map<string, FileAnalysis>();
  /** By project-relative route file: the module keys its analysis may have read. */
  private readonly reads = new Map<string, Set<string>>();
  private listing = '';
  /** Relative and aliased imports that named no file at the last build (absolute): one written since, even outside routes/ and weave/, resolves what did not. */
  private missing: string[] = [];
  /** Module keys of the files whose declarations reach every file, at the last build. */
  private everywhere = new Set<string>();
  readonly handlers = new HandlerCache();

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
  update(changed: string[] | null, project: Project): boolean {
    const listing = this.listFiles();
    const moved = listing !== this.listing || this.missing.some(exists);
    this.listing = listing;
    if (changed === null || moved || changed.some((path) => this.reachesEveryFile(path, project))) {
      this.files.clear();
      this.reads.clear();
      this.handlers.clear();
    } else {
      const edited = new Set(changed.map(moduleKey));
      for (const file of this.files.keys()) {
        const reads = this.reads.get(file);
        if (reads === undefined || reads.has(ANY_FILE) || [...edited].some((key) => reads.has(key))) this.forget(file);
      }
      this.handlers.forget(edited);
    }
    return changed !== null && moved;
  }

  /**
   * Called once a build is analysed: the program then holds every file the routes reach.
   * `named` gives, for each route file analysed in this build, the absolute paths of the
   * controller and middleware modules it names by string.
   */
  noteBuild(project: Project, named: ReadonlyMap<string, readonly string[]>, aliases: PathAliases): void {
    const reached = project.getProgram().compilerObject.getSourceFiles().filter((file) => !file.fileName.includes('/node_modules/'));
    this.missing = reached.flatMap((file) => localSpecifiers(file, aliases)).filter((path) => path !== ANY_FILE && !exists(path));
    // The graph holds the application's own files: an edit to any other re-analyses all.
    const files = reached.filter((file) => this.inProject(file.fileName));
    this.everywhere = new Set(files.filter(reachesEveryFile).map((file) => moduleKey(file.fileName)));
    const graph = new ImportGraph(files, aliases);
    for (const [file, modules] of named) this.reads.set(file, graph.closure([join(this.root, file), ...modules].map(moduleKey)));
    this.handlers.noteReads((classFile) => graph.closure([moduleKey(classFile)]));
  }

  private forget(file: string): void {
    this.files.delete(file);
    this.reads.delete(file);
  }

  private inProject(path: string): boolean {
    return path.startsWith(this.root + sep) && !path.includes('/node_modules/');
  }

  /** A file outside the project (the framework's own) is not in the import graph: it may reach anything. */
  private reachesEveryFile(path: string, project: Project): boolean {
    if (!this.inProject(path) || this.everywhere.has(moduleKey(path))) return true;
    const file = project.getSourceFile(path)?.compilerNode;
    return file !== undefined && reachesEveryFile(file);
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
