// The data `svc build` writes beside the bundle (.svc/manifest.json, .svc/ip-tables.json)
// is read when the application starts rather than bundled: V8 parses JSON faster than the
// same data as code, and esbuild need not print it into app.mjs on every `svc tread`
// rebuild.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { StaleBuildError } from './stale-build-error.ts';

export function readBuildJson(file: URL): unknown {
  const path = fileURLToPath(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new StaleBuildError(`${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new StaleBuildError(`${path} is not valid JSON (${(e as Error).message})`);
  }
}
