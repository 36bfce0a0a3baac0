import { relative } from 'node:path';
import type { CAC } from 'cac';
import { printDiagnostics } from '../print.ts';

export function register(cli: CAC): void {
  cli
    .command('build', 'Compile routes/, weave/ and svc.json into .svc/')
    .option('--json', 'Print diagnostics as JSON')
    .action(async (options: { json?: boolean }) => {
      const { build } = await import('../../build.ts'); // ts-morph loads only when needed
      let result: Awaited<ReturnType<typeof build>>;
      try {
        result = await build(process.cwd());
      } catch (e) {
        // The disk refused (.svc a file, no permission, no space): one line, not a stack.
        const { syscall, path, code } = e as NodeJS.ErrnoException;
        if (syscall === undefined || path === undefined) throw e;
        console.error(`svc: cannot ${syscall} ${relative(process.cwd(), path) || path} (${code}); svc build writes .svc/ and shoebox/outsole/ in the project`);
        return 1;
      }
      printDiagnostics(result.diagnostics, options.json === true);
      if (!result.ok) return 1;
      if (!options.json) console.log(`svc: built ${result.table?.routes.length ?? 0} routes into .svc/`);
      return 0;
    });
}
