// Where this checkout of svc lives: `'svc'` resolves here for any project tree, in
// analysis (ts-morph) and in the bundle (esbuild) alike.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const frameworkRoot = fileURLToPath(new URL('..', import.meta.url));
export const svcEntry = join(frameworkRoot, 'runtime', 'index.ts');
