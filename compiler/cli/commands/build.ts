import type { CAC } from 'cac';
import { printDiagnostics } from '../print.ts';

export function register(cli: CAC): void {
  cli
    .command('build', 'Compile routes/, weave/ and svc.json into .svc/')
    .option('--json', 'Print diagnostics as JSON')
    .action(async (options: { json?: boolean }) => {
      const { build } = await import('../../build.ts'); // ts-morph loads only when needed
      const result = await build(process.cwd());
      printDiagnostics(result.diagnostics, options.json === true);
      if (!result.ok) return 1;
      if (!options.json) console.log(`svc: built ${result.table?.routes.length ?? 0} routes into .svc/`);
      return 0;
    });
}
