// One ts-morph Project per build. Files enter it only as the analysis needs them (route
// files, then the controllers and middleware they name); imports are followed by the
// type checker, so nothing else is parsed.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { ModuleKind, ModuleResolutionKind, Project, ScriptTarget } from 'ts-morph';

/** The framework checkout this compiler runs from; `'svc'` resolves into it for any project tree. */
export const frameworkRoot = fileURLToPath(new URL('../..', import.meta.url));
export const svcEntry = join(frameworkRoot, 'runtime', 'index.ts');

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
