// The project's own files among those a build read, which `svc tread` watches: packages
// do not change under it, and the build's output and the runtime folder are written, not read.
import { isAbsolute, relative, resolve, sep } from 'node:path';

const NOT_SOURCES = /^(\.svc|shoebox|\.git)$/;

export function projectInputs(root: string, paths: Iterable<string>): string[] {
  const inputs = new Set<string>();
  for (const path of paths) {
    const absolute = resolve(root, path); // the analysis names files with '/', also on Windows
    const parts = relative(root, absolute).split(sep);
    if (parts[0] === '..' || isAbsolute(parts[0]) || NOT_SOURCES.test(parts[0]) || parts.includes('node_modules')) continue;
    inputs.add(absolute);
  }
  return [...inputs].sort();
}
