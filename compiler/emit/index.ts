// Writes every generated file into .svc/. Each emitter is a pure function of the route
// table; this file only names the outputs and writes them. The files the bundle imports
// come first; the API document is not in the bundle, so it can be written while
// esbuild builds (compiler/build.ts).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RouteTable } from '../ir.ts';
import { emitDispatcher } from './dispatcher/index.ts';
import { emitEntry } from './entry.ts';
import { emitIpTables } from './ip-tables.ts';
import { emitManifest } from './manifest.ts';
import { emitOpenApi, readApiInfo, type ApiInfo } from './openapi/index.ts';

export const OUT_DIR = '.svc';

/** What the bundle imports. */
export function emitBundled(table: RouteTable): Record<string, string> {
  return {
    'dispatcher.ts': emitDispatcher(table.routes),
    'ip-tables.json': emitIpTables(table.config),
    'manifest.json': emitManifest(table),
    'entry.ts': emitEntry(table),
  };
}

export const emitFiles = (table: RouteTable, info: ApiInfo): Record<string, string> => ({
  ...emitBundled(table),
  'openapi.json': emitOpenApi(table, info),
});

export async function writeBundled(root: string, table: RouteTable): Promise<void> {
  await writeAll(root, emitBundled(table));
}

export async function writeDocument(root: string, table: RouteTable): Promise<void> {
  await writeAll(root, { 'openapi.json': emitOpenApi(table, await readApiInfo(root)) });
}

async function writeAll(root: string, files: Record<string, string>): Promise<void> {
  const dir = join(root, OUT_DIR);
  await mkdir(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) await writeIfChanged(join(dir, name), content);
}

/** Unchanged files keep their mtime, so watchers and esbuild see only real changes. */
async function writeIfChanged(path: string, content: string): Promise<void> {
  const previous = await readFile(path, 'utf8').catch(() => null);
  if (previous !== content) await writeFile(path, content);
}
