// Writes svc.schema.json at the package root from shape.ts.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { schemaText } from './json-schema.ts';

const target = fileURLToPath(new URL('../../svc.schema.json', import.meta.url));
await writeFile(target, schemaText());
console.log(`wrote ${target}`);
