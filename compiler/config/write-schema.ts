// Writes svc.schema.json at the package root from shape.ts.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { frameworkRoot } from '../framework.ts';
import { schemaText } from './schema-file.ts';

const target = join(frameworkRoot, 'svc.schema.json');
await writeFile(target, schemaText());
console.log(`wrote ${target}`);
