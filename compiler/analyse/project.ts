// The ts-morph Project a build analyses. Files enter it only as the analysis needs them
// (route files, then the controllers and middleware they name); imports are followed by
// the type checker, so nothing else is parsed. The last project stays warm: `svc tread`
// rebuilds in one process, and a rebuild re-reads only the files that changed instead
// of parsing the libraries (@types/node, kysely…) again.
import { join } from 'node:path';
import { frameworkRoot, svcEntry } from '../framework.ts';
import { ModuleKind, ModuleResolutionKind, Project, ScriptTarget } from 'ts-morph';

export function createProject(): Project {
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
      // Handlers may return Buffer or Response; their types come from @types/node.
      typeRoots: [join(frameworkRoot, 'node_modules', '@types')],
      types: ['node'],
      paths: { svc: [svcEntry] },
    },
  });
}

let warm: { root: string; project: Project } | undefined;

/** The project for `root`: the previous build's, brought up to date with the disk, or a new one. */
export function projectFor(root: string): Project {
  if (warm?.root !== root) {
    warm = { root, project: createProject() };
    return warm.project;
  }
  refreshFromDisk(warm.project);
  return warm.project;
}

/** Re-reads every project file outside node_modules (packages do not change under a running build); deleted ones leave. */
function refreshFromDisk(project: Project): void {
  for (const file of project.getSourceFiles()) if (!file.isInNodeModules()) file.refreshFromFileSystemSync();
}
