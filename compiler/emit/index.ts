// Every generated file of .svc/. Each emitter is a pure function of the route table;
// this file only names the outputs, in the groups compiler/build.ts writes in turn: the
// sources esbuild bundles, the data the bundle reads when it starts, the API document.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RouteTable } from '../ir.ts';
import { emitAssetUrls } from './asset-urls.ts';
import { emitCanonicalPath } from './canonical-path.ts';
import { emitDispatcher } from './dispatcher/index.ts';
import { emitEntry } from './entry.ts';
import { emitIpTables } from './ip-tables.ts';
import { emitManifest } from './manifest.ts';
import { emitOpenApi, readApiInfo, type ApiInfo } from './openapi/index.ts';

export const OUT_DIR = '.svc';

/**
 * What esbuild bundles into .svc/app.mjs. The package.json makes them ES modules wherever
 * they are loaded from: a test importing `.svc/dispatcher.ts` through tsx in a project
 * whose own package.json does not say `"type": "module"` would otherwise read it as CommonJS.
 */
export const emitSources = (table: RouteTable): Record<string, string> => ({
  'package.json': '{ "type": "module" }\n',
  'asset-urls.ts': emitAssetUrls(table),
  'canonical-path.ts': emitCanonicalPath(),
  'dispatcher.ts': emitDispatcher(table.routes),
  'entry.ts': emitEntry(table),
});

/**
 * What .svc/app.mjs reads from beside itself when it starts. Written after the bundle,
 * so that a bundle esbuild rejects leaves the last good build whole.
 */
export const emitStartData = (table: RouteTable): Record<string, string> => ({
  'ip-tables.json': emitIpTables(table.config),
  'manifest.json': emitManifest(table),
});

export const emitFiles = (table: RouteTable, info: ApiInfo): Record<string, string> => ({
  ...emitSources(table),
  ...emitStartData(table),
  'openapi.json': emitOpenApi(table, info),
});

export async function emitDocument(root: string, table: RouteTable): Promise<Record<string, string>> {
  return { 'openapi.json': emitOpenApi(table, await readApiInfo(root)) };
}

/** What .svc/ files held before a write: their text, or null for a file that was not there. */
export type Previous = Record<string, string | null>;

export async function writeOutputs(root: string, files: Record<string, string>): Promise<Previous> {
  const dir = join(root, OUT_DIR);
  await mkdir(dir, { recursive: true });
  const previous: Previous = {};
  for (const [name, content] of Object.entries(files)) previous[name] = await writeIfChanged(join(dir, name), content);
  return previous;
}

/**
 * Puts back what `writeOutputs` replaced: a build whose bundle failed leaves the sources
 * of the build still served, so that `.svc/dispatcher.ts` matches `.svc/app.mjs`.
 */
export async function restoreOutputs(root: string, previous: Previous): Promise<void> {
  for (const [name, content] of Object.entries(previous)) {
    const path = join(root, OUT_DIR, name);
    await (content === null ? rm(path, { force: true }) : writeIfChanged(path, content));
  }
}

/** Unchanged files keep their mtime, so watchers and esbuild see only real changes. Returns what the file held. */
async function writeIfChanged(path: string, content: string): Promise<string | null> {
  const previous = await readFile(path, 'utf8').catch(() => null);
  if (previous !== content) await writeFile(path, content);
  return previous;
}
