import { relative } from 'node:path';

/**
 * One line for a write the disk refused (a folder that is a file, no permission, no
 * space), saying what the command writes where; null for any other failure, which keeps
 * its stack.
 */
export function diskRefusal(error: unknown, writes: string): string | null {
  const { syscall, path, code } = error as NodeJS.ErrnoException;
  if (syscall === undefined || path === undefined) return null;
  return `svc: cannot ${syscall} ${relative(process.cwd(), path) || path} (${code}); ${writes}`;
}
