// Migration create_notes: the demo application's notes (weave/Controllers/NoteController.ts).
// `svc cobble run` applies up() in a transaction and `svc cobble rollback` undoes it with
// down(). The database is typed Kysely<any>: a migration describes the schema as it was
// when it was written, not the app's current types.
import { sql, type Kysely } from "svc";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("notes")
    .addColumn("id", "integer", (column) => column.primaryKey().autoIncrement())
    .addColumn("title", "text", (column) => column.notNull())
    .addColumn("body", "text", (column) => column.notNull().defaultTo(""))
    .addColumn("created_at", "text", (column) => column.notNull().defaultTo(sql`CURRENT_TIMESTAMP`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("notes").execute();
}
