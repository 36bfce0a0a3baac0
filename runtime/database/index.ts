// The database part of the public API ('svc').
export { closeDatabase, configureDatabase, db, type Database, type DatabaseSetup } from './connection.ts';
export { pingDatabase, type DatabasePing } from './ping.ts';
// Kysely's query helper and types, so that migrations and models import them from 'svc'
// and an application need not depend on kysely itself (strict package managers, pnpm,
// resolve only an app's own dependencies).
export { sql, type Generated, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
