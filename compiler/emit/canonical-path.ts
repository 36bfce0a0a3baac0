// .svc/canonical-path.ts: the runtime's reading of a request path, copied beside the
// dispatcher so that its `match(method, path)` reads a path exactly as the server does
// and still imports nothing but that file (it can be loaded and tested on its own).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { frameworkRoot } from '../framework.ts';

const SOURCE = join('runtime', 'routing', 'canonical-path.ts');

const text = `// Copied by \`svc build\` from svc's ${SOURCE.split('\\').join('/')}; do not edit.\n${readFileSync(join(frameworkRoot, SOURCE), 'utf8')}`;

export const emitCanonicalPath = (): string => text;
