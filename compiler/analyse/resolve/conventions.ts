// Where classes named by string live (SPEC §2), and what the resolvers share.
import { join } from 'node:path';
import type { ClassDeclaration, Project } from 'ts-morph';
import type { SchemaRegistry } from '../schema/index.ts';
import type { Reporter } from '../reporter.ts';

export interface Resolver {
  root: string;
  project: Project;
  reporter: Reporter;
  registry: SchemaRegistry;
  /** Why each controller class met in the file cannot be created, `null` when it can: asked once per class, not per route (handler.ts). */
  unfit: Map<ClassDeclaration, string | null>;
}

/** `['UserController', 'show']` inside namespace `Admin` → `weave/Controllers/Admin/UserController.ts`. */
export const controllerModule = (namespace: string, className: string): string =>
  ['weave/Controllers', namespace, `${className}.ts`].filter(Boolean).join('/');

/** `'AuthMiddleware'` → `weave/Middleware/AuthMiddleware.ts` (else a class exported by 'svc'). */
export const middlewareModule = (className: string): string => `weave/Middleware/${className}.ts`;

export const absolute = (resolver: Pick<Resolver, 'root'>, module: string): string => join(resolver.root, module);
