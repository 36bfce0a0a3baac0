// Before configureDatabase() (its own file: the connection state is per process).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { closeDatabase, db, pingDatabase } from '../../runtime/database/index.ts';

test('db() before configureDatabase() throws a clear error; ping reports down; close is a no-op', async () => {
  assert.throws(() => db(), /database is not configured yet: configureDatabase\(\{ root, config \}\)/);
  const ping = await pingDatabase(1000);
  assert.equal(ping.status, 'down');
  assert.match(ping.error ?? '', /not configured/);
  await closeDatabase();
});
