import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { frameworkRoot } from './framework.ts';

/** The framework's `MAJOR.MINOR.PATCH`, from its own package.json. */
export function frameworkVersion(): string {
  const pkg = JSON.parse(readFileSync(join(frameworkRoot, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}
