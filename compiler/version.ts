import { readFileSync } from 'node:fs';

/** The framework's `MAJOR.MINOR.PATCH`, from its own package.json. */
export function frameworkVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
