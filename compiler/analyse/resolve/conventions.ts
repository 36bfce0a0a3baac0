// Where classes named by string live (SPEC §2), and what the resolvers share.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ClassDeclaration, Project } from 'ts-morph';
import type { FileHandlers } from '../handler-cache.ts';
import type { SchemaRegistry } from '../schema/index.ts';
import type { Reporter } from '../reporter.ts';

export interface Resolver {
  root: string;
  project: Project;
  reporter: Reporter;
  registry: SchemaRegistry;
  /** Why each controller class met in the file cannot be created, `null` when it can: asked once per class, not per route (handler.ts). */
  unfit: Map<ClassDeclaration, string | null>;
  /** Controller handlers described in earlier builds (`svc tread`, handler-cache.ts); null in a single build. */
  handlers: FileHandlers | null;
}

/** Namespace `Admin` → `weave/Controllers/Admin`. */
export const controllerFolder = (namespace: string): string => ['weave/Controllers', namespace].filter(Boolean).join('/');

/** `['UserController', 'show']` inside namespace `Admin` → `weave/Controllers/Admin/UserController.ts`. */
export const controllerModule = (namespace: string, className: string): string => `${controllerFolder(namespace)}/${className}.ts`;

export const MIDDLEWARE_FOLDER = 'weave/Middleware';

/** `'AuthMiddleware'` → `weave/Middleware/AuthMiddleware.ts` (else a class exported by 'svc'). */
export const middlewareModule = (className: string): string => `${MIDDLEWARE_FOLDER}/${className}.ts`;

export const absolute = (resolver: Pick<Resolver, 'root'>, module: string): string => join(resolver.root, module);

/** The class names a folder's files stand for (`weave/Middleware/Auth.ts` → `Auth`): what a name given as a string may have meant. */
export function classNamesIn(resolver: Pick<Resolver, 'root'>, folder: string): string[] {
  try {
    return readdirSync(absolute(resolver, folder)).filter((file) => file.endsWith('.ts')).map((file) => file.slice(0, -3));
  } catch {
    return []; // no such folder: nothing to suggest
  }
}
