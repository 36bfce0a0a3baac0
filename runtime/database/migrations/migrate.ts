// `cobble run` and `cobble rollback`. Each migration runs in its own transaction and is
// recorded in the tracker right after it commits, so whatever happens next (a failing
// migration, a killed process) the tracker names exactly the migrations that committed;
// a Ctrl-C while a record is written stops the run once it is written (held-signals.ts).
import { sql, type Kysely } from 'kysely';
import { db, closeDatabase, configureDatabase, type DatabaseSetup } from '../connection.ts';
import { databaseExists, databaseFileProblem } from '../dialects.ts';
import { messageOf } from '../../shoebox/log.ts';
import { CobbleError } from './cobble-error.ts';
import { MIGRATIONS_FOLDER, readMigrationsFolder, strayNote, type MigrationFile } from './files.ts';
import { loadMigration } from './load.ts';
import { unlessFailingAside, unlessNeverSettling } from './never-settles.ts';
import { holdingSignals, stoppedBy } from './held-signals.ts';
import { acquireMigrationLock, LOCK_FILE } from './lock.ts';
import { readTracker, TRACKER, writeTracker, type AppliedMigration } from './tracker.ts';

export interface MigrateOptions extends DatabaseSetup {
  /** Progress lines, printed as they happen. */
  log: (line: string) => void;
  /** How long to wait for a concurrent run to finish (default one minute). */
  lockWaitMs?: number;
}

/** Applies every pending migration, in file-name order, as one new batch. */
export async function runMigrations(options: MigrateOptions): Promise<void> {
  await underLock(options, async (applied, files) => {
    const done = new Set(applied.map((m) => m.name));
    const pending = files.filter((file) => !done.has(file.name));
    if (pending.length === 0) return options.log('Nothing to migrate.');
    const batch = Math.max(0, ...applied.map((m) => m.batch)) + 1;
    await openDatabase(options);
    await eachRecorded(pending, batch, options, {
      step: (file) => step(file, 'up'),
      record: async (file) => {
        applied.push({ name: file.name, batch, appliedAt: new Date().toISOString() });
        await writeTracker(options.root, applied);
      },
      done: 'Applied',
      left: 'Not run',
      stopped: (file, more) => `once ${file.name} was recorded as applied${more ? '; the migrations not run are still pending: run svc cobble run again to apply them' : ''}`,
    });
  });
}

/** Runs `down` for the last batch, newest first. */
export async function rollbackMigrations(options: MigrateOptions): Promise<void> {
  await underLock(options, async (applied, files) => {
    if (applied.length === 0) return options.log('Nothing to roll back.');
    const batch = Math.max(...applied.map((m) => m.batch));
    const byName = new Map(files.map((file) => [file.name, file]));
    const targets = applied.filter((m) => m.batch === batch).reverse();
    const missing = targets.filter((m) => !byName.has(m.name));
    if (missing.length) {
      throw new CobbleError(`Cannot roll back batch ${batch}: ${missing.map((m) => `${MIGRATIONS_FOLDER}/${m.name}.ts`).join(', ')} no longer exist${missing.length === 1 ? 's' : ''}. Nothing was rolled back.`);
    }
    await openDatabase(options);
    await eachRecorded(targets, batch, options, {
      step: (target) => step(byName.get(target.name)!, 'down'),
      record: async (target) => {
        applied.splice(applied.indexOf(target), 1);
        await writeTracker(options.root, applied);
      },
      done: 'Rolled back',
      left: 'Not undone',
      stopped: (target, more) => `once the rollback of ${target.name} was recorded${more ? `; the rest of batch ${batch} is still applied: run svc cobble rollback again to undo it` : ''}`,
    });
  });
}

interface Pass<T> {
  step(item: T): Promise<void>;
  /** Writes the tracker once `item`'s step has committed. */
  record(item: T): Promise<void>;
  /** The progress line's label for an item done, and for those a failure or a signal left. */
  done: string;
  left: string;
  /** Why the pass stopped after `item`, when a signal came while it was recorded; `more` when items are left. */
  stopped(item: T, more: boolean): string;
}

/**
 * Steps and records each item in turn, a line for each. A failing step, or a signal held
 * while a record was written (held-signals.ts), ends the pass with a line naming the
 * items it did not reach, aligned with the progress lines.
 */
async function eachRecorded<T extends { name: string }>(items: readonly T[], batch: number, options: MigrateOptions, pass: Pass<T>): Promise<void> {
  for (const [i, item] of items.entries()) {
    const left = (): void => {
      if (i + 1 < items.length) options.log(`${pass.left.padEnd(12)} ${items.slice(i + 1).map((later) => later.name).join(', ')}`);
    };
    try {
      await pass.step(item);
    } catch (e) {
      left();
      throw e;
    }
    const signal = await holdingSignals(() => pass.record(item));
    options.log(`${pass.done.padEnd(12)} ${item.name} (batch ${batch})`);
    if (signal) {
      left();
      throw stoppedBy(signal, pass.stopped(item, i + 1 < items.length));
    }
  }
}

/**
 * Takes the lock, then reads the tracker: a run that waited for another one sees what
 * that one applied. Opens the database for the duration and closes it before unlocking.
 */
async function underLock(
  options: MigrateOptions,
  work: (applied: AppliedMigration[], files: MigrationFile[]) => Promise<void>,
): Promise<void> {
  const release = await acquireMigrationLock(options.root, {
    waitMs: options.lockWaitMs ?? 60_000,
    onWait: () => options.log(`Waiting for another cobble run or rollback to finish (${LOCK_FILE})…`),
  });
  try {
    const applied = await readTracker(options.root);
    if (applied.length > 0 && !(await databaseExists(options.config.database, options.root))) throw databaseGone(options, applied);
    const problem = await databaseFileProblem(options.config.database, options.root);
    if (problem) throw new CobbleError(`${problem}: nothing was run. Put the database back, or point svc.json database.path at an SQLite file (or a path with no file yet).`);
    const { files, stray } = await readMigrationsFolder(options.root);
    reportMissing(applied, files, options.log);
    for (const file of stray) options.log(strayNote(file));
    await configureDatabase(options).catch((e: Error) => {
      throw new CobbleError(e.message);
    });
    await work(applied, files);
  } finally {
    await closeDatabase();
    release();
  }
}

/**
 * The tracker says migrations ran, yet the database is not there (deleted, or svc.json
 * points elsewhere): running against a new empty one would fail on the first migration
 * that builds on an earlier one, or leave the two disagreeing for good.
 */
function databaseGone(options: MigrateOptions, applied: readonly AppliedMigration[]): CobbleError {
  return new CobbleError(databaseGoneText(options.config.database.path, applied.length, 'Nothing was run. '));
}

export const databaseGoneText = (path: string, applied: number, outcome = ''): string =>
  `${TRACKER} records ${applied} applied migration${applied === 1 ? '' : 's'}, but the database ${path} does not exist. ` +
  `${outcome}Restore the database, or, to build it afresh, delete ${TRACKER} and run svc cobble run again.`;

/**
 * A database that cannot be opened (its path a folder, a file where its folder belongs)
 * is said to be the trouble before a migration runs, rather than as that migration failing.
 */
async function openDatabase(options: MigrateOptions): Promise<void> {
  try {
    await sql`select 1`.execute(db());
  } catch (e) {
    throw new CobbleError(`cannot open the database ${options.config.database.path}: ${messageOf(e)}. Nothing was run.`);
  }
}

async function step(file: MigrationFile, direction: 'up' | 'down'): Promise<void> {
  const migration = await loadMigration(file);
  const run = (database: Kysely<any>) => unlessFailingAside(unlessNeverSettling(migration[direction](database), `${direction}(db)`), `${direction}(db)`);
  const alone = migration.withinTransaction === false;
  const verb = direction === 'up' ? 'Migration' : 'Rollback of';
  // process.exit() in the migration's code (exit code 0, as often as not) would end the
  // command in silence, the migration neither committed nor recorded.
  const exited = (): void => {
    const kept = alone ? 'what it did stays (withinTransaction = false)' : 'its transaction was not committed';
    process.stderr.write(`svc cobble: ${verb} ${file.name} ended the process before it finished (process.exit() in its code?): it is not ${direction === 'up' ? 'recorded' : 'undone in migrations.json'}, and ${kept}.\n`);
    process.exitCode = 1;
  };
  process.once('exit', exited);
  try {
    await (alone ? run(db()) : db<any>().transaction().execute(run));
  } catch (e) {
    const outcome = alone ? 'failed; it ran without a transaction (withinTransaction = false), so what it did before failing stays' : 'failed and was rolled back';
    throw new CobbleError(`${verb} ${file.name} ${outcome}: ${messageOf(e)}`);
  } finally {
    process.off('exit', exited);
  }
}

function reportMissing(applied: readonly AppliedMigration[], files: readonly MigrationFile[], log: (line: string) => void): void {
  const present = new Set(files.map((file) => file.name));
  for (const m of applied) {
    if (!present.has(m.name)) log(`Missing file ${m.name}: recorded as applied (batch ${m.batch}) but ${MIGRATIONS_FOLDER}/${m.name}.ts no longer exists.`);
  }
}
