// `cobble status`: what the tracker says ran, what is waiting, and which recorded
// migrations have lost their file.
import { databaseExists, type DatabaseConfig } from '../dialects.ts';
import { readMigrationsFolder, strayNote } from './files.ts';
import { databaseGoneText } from './migrate.ts';
import { readTracker, type AppliedMigration } from './tracker.ts';

export interface MigrationStatus {
  /** Migrations are recorded as applied, yet the database file is not there (deleted, or svc.json names another). */
  databaseMissing: boolean;
  /** In the order they ran. */
  applied: AppliedMigration[];
  /** Names, in the order `cobble run` would apply them. */
  pending: string[];
  /** Applied names whose file no longer exists. */
  missing: string[];
  /** Code files of the folder not named as migrations, which never run. */
  ignored: string[];
}

export async function migrationStatus(root: string, database: DatabaseConfig): Promise<MigrationStatus> {
  const applied = await readTracker(root);
  const { files, stray } = await readMigrationsFolder(root);
  const done = new Set(applied.map((m) => m.name));
  const present = new Set(files.map((file) => file.name));
  return {
    databaseMissing: applied.length > 0 && !(await databaseExists(database, root)),
    applied,
    pending: files.filter((file) => !done.has(file.name)).map((file) => file.name),
    missing: applied.filter((m) => !present.has(m.name)).map((m) => m.name),
    ignored: stray,
  };
}

/** A plain-text table, one line per migration: applied ones first, then pending. */
export function formatStatus(status: MigrationStatus, database: DatabaseConfig): string {
  const ignored = status.ignored.map((file) => `ignored: ${strayNote(file)}`);
  if (status.applied.length === 0 && status.pending.length === 0) return ['No migrations.', ...ignored].join('\n');
  const missing = new Set(status.missing);
  const rows = [
    ['Status', 'Batch', 'Applied at', 'Migration'],
    ...status.applied.map((m) => [missing.has(m.name) ? 'missing' : 'applied', String(m.batch), m.appliedAt, m.name]),
    ...status.pending.map((name) => ['pending', '', '', name]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd());
  const notes = [
    ...(status.databaseMissing ? [`database missing: ${databaseGoneText(database.path, status.applied.length)}`] : []),
    ...status.missing.map((name) => `missing: ${name} is recorded as applied but its file no longer exists.`),
    ...ignored,
  ];
  return [...lines, ...(notes.length ? ['', ...notes] : [])].join('\n');
}
