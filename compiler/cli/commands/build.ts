import type { CAC } from 'cac';
import { diskRefusal } from '../disk-refusal.ts';
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
        const refused = diskRefusal(e, 'svc build writes .svc/ and shoebox/outsole/ in the project');
        if (refused === null) throw e;
        console.error(refused);
        return 1;
      }
      printDiagnostics(result.diagnostics, Boolean(options.json)); // `--json --json` gives [true, true]
      if (!result.ok) return 1;
      if (!options.json) console.log(`svc: built ${result.table?.routes.length ?? 0} routes into .svc/`);
      return 0;
    });
}
