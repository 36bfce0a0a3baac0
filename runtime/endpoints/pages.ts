// What the built-in pages read from disk: svc's own templates and guide, and the build
// the server runs. Read at start-up, so a request never waits for a template.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import type { BuiltinName } from '../server/builtins.ts';
import type { Manifest } from '../manifest.ts';
import { frameworkRoot } from '../shoebox/paths.ts';

export type Page = (data: object) => string;

/** `templates/<name>.hbs` of the svc package. */
export async function loadPage(root: string, name: string): Promise<Page> {
  const file = join(svcFolder(root), 'templates', `${name}.hbs`);
  return Handlebars.create().compile(await readFile(file, 'utf8'));
}

/** docs/ of the svc package: the user guide and its sibling documents. */
export const docsFolder = (root: string): string => join(svcFolder(root), 'docs');

/** A file of the build in `.svc/` that the server runs. */
export const buildFile = (root: string, name: string): string => join(root, '.svc', name);

/** The path a built-in endpoint is served at, e.g. `/svc/docs` (the default when the build has no such route). */
export function builtinPath(manifest: Manifest, name: BuiltinName, fallback: string): string {
  const route = manifest.routes.find((r) => r.handler.kind === 'builtin' && r.handler.name === name);
  return route?.pattern ?? `/${fallback}`;
}

function svcFolder(root: string): string {
  const folder = frameworkRoot(root);
  if (folder === null) throw new Error(`Cannot find the svc package from ${root}: its templates are needed for the built-in pages.`);
  return folder;
}
