// The ts-morph Project a build analyses. Files enter it only as the analysis needs them
// (route files, then the controllers and middleware they name); imports are followed by
// the type checker, so nothing else is parsed. The last project stays warm: `svc tread`
// rebuilds in one process, and a rebuild re-reads only the files that changed instead
// of parsing the libraries (@types/node, kysely…) again.
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { frameworkRoot, svcEntry } from '../framework.ts';
import { ModuleKind, ModuleResolutionKind, Project, ScriptTarget } from 'ts-morph';
import { NO_ALIASES, type PathAliases } from './path-aliases.ts';

export function createProject(aliases: PathAliases = NO_ALIASES): Project {
  return new Project({
    skipAddingFilesFromTsConfig: true,
    compilerOptions: {
      target: ScriptTarget.ES2022,
      module: ModuleKind.NodeNext,
      moduleResolution: ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts'],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      allowImportingTsExtensions: true,
      resolveJsonModule: true,
      verbatimModuleSyntax: true,
      // Handlers may return Buffer or Response; their types come from @types/node, a
      // dependency of svc: in svc's own node_modules, or hoisted beside it in an app's.
      typeRoots: [typesFolder()],
      types: ['node'],
      paths: { ...aliases.compilerPaths(), svc: [svcEntry] },
    },
  });
}

/** The `@types` folder svc's `@types/node` was installed into. */
function typesFolder(): string {
  try {
    return dirname(dirname(createRequire(join(frameworkRoot, 'package.json')).resolve('@types/node/package.json')));
  } catch {
    return join(frameworkRoot, 'node_modules', '@types');
  }
}

interface Warm {
  root: string;
  aliases: string;
  project: Project;
  /** `mtime:ctime:size` of each project file when last read, so a rebuild re-reads only files that changed. */
  stamps: Map<string, string>;
}

let warm: Warm | undefined;

export interface ProjectState {
  project: Project;
  /** Absolute paths of the project files that changed or vanished since the last build of this root; null for a new project. */
  changed: string[] | null;
}

/**
 * The project for `root`: the previous build's, brought up to date with the disk, or a
 * new one, also when tsconfig.json's aliases changed, as they change how imports resolve.
 */
export function projectFor(root: string, aliases: PathAliases): ProjectState {
  if (warm?.root !== root || warm.aliases !== aliases.key) {
    warm = { root, aliases: aliases.key, project: createProject(aliases), stamps: new Map() };
    return { project: warm.project, changed: null };
  }
  return { project: warm.project, changed: refreshFromDisk(warm) };
}

/** The next build starts from a new project. */
export function forgetProject(): void {
  warm = undefined;
}

/**
 * Re-reads the files of the last build outside node_modules (packages do not change
 * under a running build) whose stamp moved; deleted ones leave. Files the checker reached
 * through imports are not "in" the ts-morph project, which refreshes only its own: they
 * are taken in first.
 */
function refreshFromDisk({ project, stamps }: Warm): string[] {
  for (const { fileName } of project.getProgram().compilerObject.getSourceFiles()) {
    if (!fileName.includes('/node_modules/')) project.addSourceFileAtPathIfExists(fileName);
  }
  const changed: string[] = [];
  for (const file of project.getSourceFiles()) {
    if (file.isInNodeModules()) continue;
    const path = file.getFilePath();
    const stamp = stampOf(path);
    if (stamp !== undefined && stamps.get(path) === stamp) continue;
    const text = stamp === undefined ? undefined : readText(path);
    if (text === undefined) stamps.delete(path);
    else stamps.set(path, stamp!);
    if (text === file.getFullText()) continue;
    // A fresh parse. ts-morph's own refresh diffs the old tree against the new one to keep
    // its node wrappers, which nothing here holds from one build to the next.
    if (text === undefined) project.removeSourceFile(file);
    else project.createSourceFile(path, text, { overwrite: true });
    changed.push(path);
  }
  return changed;
}

// The change time too: tools that copy a file's modification time along with its text
// (`rsync -t`, `cp -p`, `touch -r`) can leave mtime and size as they were, but every
// write moves ctime, which no one can set back.
// A path that is no longer a file (made a folder, a link to a folder) has no stamp: it
// leaves the project as a deleted file does, and the build says why where it is used.
function stampOf(path: string): string | undefined {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat?.isFile() ? `${stat.mtimeMs}:${stat.ctimeMs}:${stat.size}` : undefined;
}

/** The file's text; undefined when it went between its stat and the read (deleted, made a folder). */
function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Makes the checker resolve every import again. TypeScript keeps the module resolutions
 * of a file that did not change from one program to the next, so an import of a file
 * that was missing would stay unresolved after the file comes back (an undo, a `git
 * checkout`). When files come or go, every application file is taken afresh: a parse of
 * the text at hand, no disk read.
 */
export function resolveImportsAgain(project: Project): void {
  for (const file of project.getSourceFiles()) {
    if (!file.isInNodeModules()) project.createSourceFile(file.getFilePath(), file.getFullText(), { overwrite: true });
  }
}
