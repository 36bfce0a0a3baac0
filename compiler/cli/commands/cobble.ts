// `svc cobble create|run|status|rollback`: database migrations (runtime/database/migrations/).
import type { CAC } from 'cac';
import { hasErrors } from '../../diagnostics.ts';
import { loadConfig } from '../../config/index.ts';
import { actionOption } from '../action-options.ts';
import { diskRefusal } from '../disk-refusal.ts';
import { printDiagnostics } from '../print.ts';
import { allowTypeScriptImports } from '../typescript-imports.ts';
import { UsageError } from '../usage-error.ts';
import { CobbleError } from '../../../runtime/database/migrations/cobble-error.ts';
import { described } from '../../../runtime/shoebox/log.ts';
import { createMigration } from '../cobble-create.ts';
import { NAME_PATTERN } from '../../../runtime/database/migrations/files.ts';
import { rollbackMigrations, runMigrations } from '../../../runtime/database/migrations/migrate.ts';
import { insideStep } from '../../../runtime/database/migrations/never-settles.ts';
import { formatStatus, migrationStatus } from '../../../runtime/database/migrations/status.ts';

interface CobbleOptions {
  json?: boolean;
}

const actions: Record<string, (root: string, name: string | undefined, options: CobbleOptions) => Promise<number>> = {
  async create(root, name) {
    if (name === undefined) throw new UsageError('cobble create needs a migration name, e.g. svc cobble create create_notes');
    if (!NAME_PATTERN.test(name)) {
      throw new UsageError(`Invalid migration name "${name}": use only ASCII letters, digits and underscores, e.g. create_notes`);
    }
    console.log(`Created ${await createMigration(root, name)}`);
    return 0;
  },
  async run(root) {
    const config = await projectConfig(root);
    if (!config) return 1;
    await allowTypeScriptImports(); // the migrations are the project's own .ts files
    return reportingFailuresAside(() => runMigrations({ root, config, log: (line) => console.log(line) }));
  },
  async rollback(root) {
    const config = await projectConfig(root);
    if (!config) return 1;
    await allowTypeScriptImports();
    return reportingFailuresAside(() => rollbackMigrations({ root, config, log: (line) => console.log(line) }));
  },
  async status(root, _name, options) {
    const config = await projectConfig(root);
    if (!config) return 1;
    const status = await migrationStatus(root, config.database);
    console.log(options.json ? JSON.stringify(status, null, 2) : formatStatus(status, config.database));
    // As run and rollback refuse: what the tracker says applied is not in any database.
    return status.databaseMissing ? 1 : 0;
  },
};

export function register(cli: CAC): void {
  const command = cli
    .command('cobble [action] [name]', 'Database migrations: create <Name>, run, status, rollback')
    .usage('cobble create <Name> | cobble run | cobble status [--json] | cobble rollback')
    .example('svc cobble create create_notes');
  actionOption(command, '--json', 'print as JSON', ['status']);
  command.action(async (action: string | undefined, name: string | undefined, options: CobbleOptions) => {
    if (action === undefined) throw new UsageError('cobble needs a subcommand: create <Name>, run, status or rollback.');
    const run = Object.hasOwn(actions, action) ? actions[action] : undefined;
    if (!run) throw new UsageError(`Unknown cobble subcommand: ${action} (expected create, run, status or rollback).`);
    if (action !== 'create' && name !== undefined) throw new UsageError(`cobble ${action} takes no argument, got "${name}".`);
    try {
      return await run(process.cwd(), name, options);
    } catch (e) {
      const message = e instanceof CobbleError ? `svc cobble: ${e.message}` : diskRefusal(e, 'svc cobble writes migration files and migrations.json in shoebox/migrations/');
      if (message === null) throw e;
      console.error(message);
      return e instanceof CobbleError ? e.exitCode : 1;
    }
  });
}

/** How long after its last migration svc lingers (bin/svc.js) before it exits regardless. */
const LINGER_MS = 1000;

/**
 * Runs `work` and returns its exit code. Code a migration started and did not await may
 * fail outside its up() or down() (between two migrations, or once the last has been
 * committed and recorded): Node would print a stack trace. Said as what it is instead,
 * exit 1; a failure while up() or down() runs fails that migration (never-settles.ts).
 * The handlers stay only while the command lingers: a process that called main() itself
 * keeps its own handling of what it throws after that.
 */
async function reportingFailuresAside(work: () => Promise<void>): Promise<number> {
  let failed = false;
  const aside = (thrown: unknown): void => {
    if (insideStep()) return;
    failed = true;
    console.error(
      `svc cobble: code a migration started and did not await failed outside its up() and down(): ${described(thrown)}. ` +
        'What it did is in no migration\'s transaction: await it inside up() or down().',
    );
    process.exitCode = 1; // once the command has returned its code
  };
  process.on('uncaughtException', aside).on('unhandledRejection', aside);
  try {
    await work();
    return failed ? 1 : 0;
  } finally {
    setTimeout(() => process.off('uncaughtException', aside).off('unhandledRejection', aside), LINGER_MS).unref();
  }
}

/** svc.json, or null after printing why it cannot be used. */
async function projectConfig(root: string) {
  const { config, diagnostics } = await loadConfig(root);
  printDiagnostics(diagnostics, false);
  return config && !hasErrors(diagnostics) ? config : null;
}
