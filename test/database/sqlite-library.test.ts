// better-sqlite3's compiled module does not load in a Node.js it was not built for (a
// node_modules installed under another version, or an npm `nodedir` naming another
// version's headers). A preload makes every `.node` file fail as such a module does, so
// this runs on any machine: where Node has a complete node:sqlite, svc never needs the
// module; where it has none (Node 20), the failure is one line that says what to do.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { svc } from '../support/cli.ts';
import { appliedNames, createTable, migrationPath, project } from '../cobble/support.ts';

const BROKEN_ADDONS = `const Module = require('node:module');
Module._extensions['.node'] = (module, file) => {
  const error = new Error(\`The module '\${file}' was compiled against a different Node.js version using NODE_MODULE_VERSION 1.\`);
  error.code = 'ERR_DLOPEN_FAILED';
  throw error;
};
`;

const nodeSqlite = process.getBuiltinModule('node:sqlite') as { StatementSync: { prototype: object } } | undefined;
const hasCompleteNodeSqlite = nodeSqlite !== undefined && 'columns' in nodeSqlite.StatementSync.prototype;

async function cobbleWithBrokenAddons() {
  const root = await project({ [migrationPath('20250101000000_create_notes')]: createTable('notes') });
  const preload = join(root, 'broken-addons.cjs');
  await writeFile(preload, BROKEN_ADDONS);
  return { root, result: svc(root, ['cobble', 'run'], { NODE_OPTIONS: `--require ${preload}` }) };
}

test('with node:sqlite complete, migrations run without better-sqlite3 and without an experimental warning', { skip: !hasCompleteNodeSqlite && `Node.js ${process.version} has no complete node:sqlite` }, async () => {
  const { root, result } = await cobbleWithBrokenAddons();
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stderr, '');
  assert.deepEqual(appliedNames(root), ['20250101000000_create_notes']);
});

test('without node:sqlite, a better-sqlite3 built for another Node.js is one line saying how to rebuild it', { skip: hasCompleteNodeSqlite && `Node.js ${process.version} takes node:sqlite` }, async () => {
  const { root, result } = await cobbleWithBrokenAddons();
  assert.equal(result.status, 1);
  assert.match(result.stderr, /^svc cobble: better-sqlite3 does not load in Node\.js v[\d.]+: The module '.*better_sqlite3\.node' was compiled against a different Node\.js version using NODE_MODULE_VERSION 1\. Run `npm rebuild better-sqlite3` with this Node\.js \(and an npm `nodedir` setting, if you have one, naming its headers\), or use Node\.js 22\.16 or later, whose own node:sqlite svc takes instead\.\n$/);
  assert.deepEqual(appliedNames(root), []);
});
