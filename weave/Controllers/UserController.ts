import { Controller, HttpError } from 'svc';

export interface User {
  id: number;
  name: string;
  email: string;
  /** When the account was created. */
  createdAt: Date;
}

export interface NewUser {
  name: string;
  email: string;
}

const users: User[] = [
  { id: 1, name: 'Ada Lovelace', email: 'ada@example.com', createdAt: new Date('2026-01-05T10:00:00Z') },
  { id: 2, name: 'Grace Hopper', email: 'grace@example.com', createdAt: new Date('2026-02-11T09:30:00Z') },
];

export class UserController extends Controller {
  /** List users, or those whose name contains `?name=` (any case) */
  index(): User[] {
    const name = this.ctx.query.get('name')?.toLowerCase();
    return name ? users.filter((u) => u.name.toLowerCase().includes(name)) : users;
  }

  /**
   * Show one user
   *
   * Answers 404 when no user has that id.
   */
  show(id: number): User {
    return this.findOrFail(id);
  }

  /** Create a user from a JSON body `{ name, email }` */
  store(): User {
    // Any JSON may arrive: `null` and arrays too.
    const input = this.ctx.json<Partial<NewUser> | null>();
    if (typeof input?.name !== 'string' || typeof input.email !== 'string') {
      throw new HttpError(400, 'Send a JSON body with string fields "name" and "email".');
    }
    const user: User = { id: users.length + 1, name: input.name, email: input.email, createdAt: new Date() };
    users.push(user);
    this.ctx.status(201).header('Location', `/api/users/${user.id}`);
    return user;
  }

  /** svc build reads the controller's own helpers too: the docs list this 404 under `show`. */
  private findOrFail(id: number): User {
    const user = users.find((u) => u.id === id);
    if (!user) throw new HttpError(404, `No user with id ${id}.`);
    return user;
  }
}
