// Writes every generated file into .svc/. Each emitter is a pure function of the route
// table; this file only names the outputs and writes them.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RouteTable } from '../ir.ts';
import { emitDispatcher } from './dispatcher/index.ts';
import { emitEntry } from './entry.ts';
import { emitIpTables } from './ip-tables.ts';
import { emitManifest } from './manifest.ts';
import { emitOpenApi, readApiInfo, type ApiInfo } from './openapi/index.ts';

export const OUT_DIR = '.svc';

export function emitFiles(table: RouteTable, info: ApiInfo): Record<string, string> {
  return {
    'dispatcher.ts': emitDispatcher(table.routes),
    'ip-tables.json': emitIpTables(table.config),
    'openapi.json': emitOpenApi(table, info),
    'manifest.json': emitManifest(table),
    'entry.ts': emitEntry(table),
  };
}

export async function emit(root: string, table: RouteTable): Promise<void> {
  const dir = join(root, OUT_DIR);
  await mkdir(dir, { recursive: true });
  for (const [name, content] of Object.entries(emitFiles(table, await readApiInfo(root)))) {
    await writeIfChanged(join(dir, name), content);
  }
}

/** Unchanged files keep their mtime, so watchers and esbuild see only real changes. */
async function writeIfChanged(path: string, content: string): Promise<void> {
  const previous = await readFile(path, 'utf8').catch(() => null);
  if (previous !== content) await writeFile(path, content);
}
