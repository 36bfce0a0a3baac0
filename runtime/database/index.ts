// The database part of the public API ('svc').
export { closeDatabase, configureDatabase, db, type Database, type DatabaseSetup } from './connection.ts';
export { pingDatabase, type DatabasePing } from './ping.ts';
