// Migration files: `shoebox/migrations/<YYYYMMDDHHmmss>_<Name>.ts`, applied in file-name
// order, so the timestamp decides. A migration's name is its file name without `.ts`.
import { readdir } from 'node:fs/promises';
import { shoeboxPath } from '../../shoebox/paths.ts';
import { CobbleError } from './cobble-error.ts';

export const MIGRATIONS_FOLDER = 'shoebox/migrations';
export const NAME_PATTERN = /^[A-Za-z0-9_]+$/;
const FILE_PATTERN = /^\d{14}_[A-Za-z0-9_]+\.ts$/;

export interface MigrationFile {
  /** `20250101120000_create_notes` */
  name: string;
  path: string;
}

export interface MigrationsFolder {
  /** The migrations, in the order they run. */
  files: MigrationFile[];
  /** Code files cobble never runs, their names not `<YYYYMMDDHHmmss>_<Name>.ts`: worth a word, not silence. */
  stray: string[];
}

export async function readMigrationsFolder(root: string): Promise<MigrationsFolder> {
  let entries: string[];
  try {
    entries = (await readdir(shoeboxPath(root, 'migrations'))).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { files: [], stray: [] };
    throw e;
  }
  return {
    files: entries.filter((entry) => FILE_PATTERN.test(entry)).map((entry) => ({ name: entry.slice(0, -'.ts'.length), path: shoeboxPath(root, 'migrations', entry) })),
    stray: entries.filter((entry) => CODE_FILE.test(entry) && !/\.d\.ts$/i.test(entry) && !FILE_PATTERN.test(entry)),
  };
}

/** Case-insensitive: `…_notes.TS` is not run either, and deserves the same word. */
const CODE_FILE = /\.[cm]?[jt]s$/i;

export const strayNote = (file: string): string =>
  `${MIGRATIONS_FOLDER}/${file} is not run: a migration file is named <YYYYMMDDHHmmss>_<Name>.ts (svc cobble create <Name> writes one).`;

/** `20250101120000_create_notes` → `create_notes` */
export const userName = (name: string): string => name.slice('YYYYMMDDHHmmss_'.length);

/**
 * The timestamp for a new migration, in UTC so that a team across time zones keeps its
 * order. Never earlier than the newest existing one plus a second: two migrations created
 * within the same second still run in the order they were created.
 */
export function nextTimestamp(existing: readonly MigrationFile[], now: Date): string {
  const newest = existing.at(-1)?.name.slice(0, 14);
  const floor = newest ? parseTimestamp(newest) + 1000 : -Infinity;
  const next = new Date(Math.max(now.getTime(), floor));
  // Past the year 9999 the name would need a fifth digit for the year, and sort first.
  if (next.getUTCFullYear() > 9999) {
    throw new CobbleError(`no timestamp comes after ${existing.at(-1)!.name}'s: rename that file with the time it was really written, then create again.`);
  }
  return formatTimestamp(next);
}

function parseTimestamp(stamp: string): number {
  const [y, mo, d, h, mi, s] = [0, 4, 6, 8, 10, 12].map((at, i) => Number(stamp.slice(at, at + (i === 0 ? 4 : 2))));
  return Date.UTC(y!, mo! - 1, d, h, mi, s);
}

function formatTimestamp(date: Date): string {
  return date.toISOString().replace(/\D/g, '').slice(0, 14);
}
