// `svc cache:clear`: empties shoebox/cache/, the ShoeCacheKnots store.
import { relative } from 'node:path';
import type { CAC } from 'cac';
import { clearCache, type Cleared } from '../../../runtime/knots/clear-cache.ts';

export function register(cli: CAC): void {
  cli.command('cache:clear', 'Empty shoebox/cache/ (responses stored by ShoeCacheKnots)').action(async () => {
    const root = process.cwd();
    let cleared: Cleared;
    try {
      cleared = await clearCache(root);
    } catch (e) {
      // shoebox/cache is a file, or not ours to read: say so, without a stack trace.
      console.error(`svc: cannot empty shoebox/cache/: ${(e as Error).message}`);
      return 1;
    }
    const { folder, files, bytes } = cleared;
    console.log(`svc: removed ${files} ${files === 1 ? 'file' : 'files'} (${formatBytes(bytes)}) from ${relative(root, folder)}/`);
    return 0;
  });
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KiB'] : [bytes / (1024 * 1024), 'MiB'];
  return `${value.toFixed(1)} ${unit}, ${bytes} bytes`;
}
