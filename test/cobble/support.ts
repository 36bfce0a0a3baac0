// Helpers for cobble tests: run the real CLI in a project tree and look at what it left
// behind (the SQLite file, the tracker) without going through the code under test.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import { svc, type CliResult } from '../support/cli.ts';
import { connectSqlite } from '../../runtime/database/sqlite-library.ts';
import { makeProject, removeProject, repoRoot } from '../support/project.ts';

const roots: string[] = [];
after(async () => Promise.all(roots.map(removeProject)));

/** A project tree under test/.tmp/, removed when the test file has finished. */
export async function project(files: Record<string, string> = {}): Promise<string> {
  const root = await makeProject(files);
  roots.push(root);
  return root;
}

/** `svc cobble …` in `root`, to completion. */
export const cobble = (root: string, ...args: string[]): CliResult => svc(root, ['cobble', ...args]);

/** `svc cobble …` in the background; `output` resolves once `stdout` contains `text`. */
export function startCobble(root: string, ...args: string[]) {
  const child = spawn(process.execPath, [join(repoRoot, 'bin', 'svc.js'), 'cobble', ...args], { cwd: root });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (status) => resolve({ status, stdout, stderr })),
  );
  const output = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!stdout.includes(text)) return;
        stop();
        resolve();
      };
      const closed = () => {
        stop();
        if (stdout.includes(text)) resolve();
        else reject(new Error(`cobble exited before printing "${text}":\n${stdout}${stderr}`));
      };
      const stop = () => {
        child.stdout.off('data', check);
        child.off('close', closed);
      };
      child.stdout.on('data', check);
      child.on('close', closed);
      check();
    });
  return { done, output };
}

export const databaseFile = (root: string): string => join(root, 'shoebox', 'database.sqlite');
export const trackerFile = (root: string): string => join(root, 'shoebox', 'migrations', 'migrations.json');

/** Every schema object (`type name: sql`), sorted; empty when there is no database file. */
export function schema(root: string): string[] {
  if (!existsSync(databaseFile(root))) return [];
  const database = connectSqlite(databaseFile(root), { mustExist: true });
  try {
    return (database.prepare('select type, name, sql from sqlite_master order by type, name').all([]) as { type: string; name: string; sql: string }[])
      .map((row) => `${row.type} ${row.name}: ${row.sql}`);
  } finally {
    database.close();
  }
}

export function rows(root: string, query: string): unknown[] {
  const database = connectSqlite(databaseFile(root), { mustExist: true });
  try {
    return database.prepare(query).all([]);
  } finally {
    database.close();
  }
}

/** The tracker's raw bytes, or null when it does not exist. */
export const trackerText = (root: string): string | null =>
  existsSync(trackerFile(root)) ? readFileSync(trackerFile(root), 'utf8') : null;

export function appliedNames(root: string): string[] {
  const text = trackerText(root);
  return text === null ? [] : (JSON.parse(text) as { migrations: { name: string }[] }).migrations.map((m) => m.name);
}

/** A migration that creates (and drops) a one-column table. */
export const createTable = (table: string): string => `import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('${table}').addColumn('id', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('${table}').execute();
}
`;

/** A migration whose up() changes the schema and then fails. */
export const failing = `import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('half_done').addColumn('id', 'integer').execute();
  await sql\`insert into no_such_table values (1)\`.execute(db);
}

export async function down(): Promise<void> {}
`;

export const migrationPath = (name: string): string => `shoebox/migrations/${name}.ts`;
