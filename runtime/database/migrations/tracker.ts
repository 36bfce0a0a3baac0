// `shoebox/migrations/migrations.json`: which migrations ran, in which batch, when.
// It is rewritten after every single migration commits, through a temporary file and a
// rename, so a crash at any moment leaves either the old or the new list, never half of
// one. An empty or unreadable tracker is refused rather than silently replaced: guessing
// would re-run migrations that already changed the schema.
import { open, readFile, rename } from 'node:fs/promises';
import { shoeboxPath } from '../../shoebox/paths.ts';
import { CobbleError } from './cobble-error.ts';
import { MIGRATIONS_FOLDER } from './files.ts';

export interface AppliedMigration {
  name: string;
  batch: number;
  /** ISO-8601 time of the commit. */
  appliedAt: string;
}

interface TrackerFile {
  migrations: AppliedMigration[];
}

export const TRACKER = `${MIGRATIONS_FOLDER}/migrations.json`;
const trackerPath = (root: string): string => shoeboxPath(root, 'migrations', 'migrations.json');

/** The applied migrations in the order they ran; none when the tracker does not exist yet. */
export async function readTracker(root: string): Promise<AppliedMigration[]> {
  let text: string;
  try {
    text = await readFile(trackerPath(root), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new CobbleError(`Cannot read ${TRACKER}: ${(e as Error).message}`);
  }
  const fix = `Restore it (it should look like {"migrations": [{"name": …, "batch": 1, "appliedAt": …}]}), or delete it only if no migration was ever applied to this database.`;
  if (text.trim() === '') throw new CobbleError(`${TRACKER} is empty. ${fix}`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new CobbleError(`${TRACKER} is not valid JSON (${(e as Error).message}). ${fix}`);
  }
  const problem = shapeProblem(data);
  if (problem) throw new CobbleError(`${TRACKER} is corrupt: ${problem}. ${fix}`);
  return (data as TrackerFile).migrations;
}

function shapeProblem(data: unknown): string | null {
  const migrations = (data as Partial<TrackerFile> | null)?.migrations;
  if (typeof data !== 'object' || data === null || !Array.isArray(migrations)) return 'expected an object with a "migrations" array';
  const seen = new Set<string>();
  for (const [i, entry] of migrations.entries()) {
    const { name, batch, appliedAt } = (entry ?? {}) as Partial<AppliedMigration>;
    if (typeof name !== 'string' || name === '') return `migrations[${i}].name must be a non-empty string`;
    // Past 2^53 the next batch rounds to the same number, and a rollback would undo both.
    if (!Number.isSafeInteger(batch) || batch! < 1) return `migrations[${i}].batch must be a whole number from 1 to ${Number.MAX_SAFE_INTEGER}`;
    if (typeof appliedAt !== 'string') return `migrations[${i}].appliedAt must be a string`;
    if (seen.has(name)) return `"${name}" is listed twice`;
    seen.add(name);
  }
  return null;
}

export async function writeTracker(root: string, migrations: AppliedMigration[]): Promise<void> {
  const target = trackerPath(root);
  const temporary = `${target}.${process.pid}.tmp`;
  const file = await open(temporary, 'w');
  try {
    await file.writeFile(`${JSON.stringify({ migrations } satisfies TrackerFile, null, 2)}\n`);
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(temporary, target);
}
