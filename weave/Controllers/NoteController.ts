import { Controller, HttpError, db, type Generated } from 'svc';

/** The `notes` table (shoebox/migrations/…_create_notes.ts), as `db()` sees it. */
export interface NotesTable {
  id: Generated<number>;
  title: string;
  body: Generated<string>;
  created_at: Generated<string>;
}

declare module 'svc' {
  interface Database {
    notes: NotesTable;
  }
}

export interface Note {
  id: number;
  title: string;
  body: string;
  /** When the note was written (UTC, `YYYY-MM-DD HH:MM:SS`). */
  created_at: string;
}

export interface NewNote {
  title: string;
  body?: string;
}

export class NoteController extends Controller {
  /** List notes, newest first */
  async index(): Promise<Note[]> {
    return db().selectFrom('notes').selectAll().orderBy('id', 'desc').execute();
  }

  /** Write a note from a JSON body `{ title, body? }` */
  async store(): Promise<Note> {
    // Any JSON may arrive: `null` and arrays too.
    const input = this.ctx.json<Partial<NewNote> | null>();
    if (typeof input?.title !== 'string' || input.title.trim() === '' || (input.body !== undefined && typeof input.body !== 'string')) {
      throw new HttpError(400, 'Send a JSON body with a non-empty string "title" and an optional string "body".');
    }
    const note = await db()
      .insertInto('notes')
      .values({ title: input.title, ...(input.body !== undefined && { body: input.body }) })
      .returningAll()
      .executeTakeFirstOrThrow();
    this.ctx.status(201);
    return note;
  }
}
