// Names the components of the whole table at once. Analysis leaves each `$ref` holding a
// component key (type-names.ts), so that a route file's schemas do not depend on what
// other files met first; here the keys become names in table order (route by route:
// parameters, request body, return type; depth first), two types wanting one name get
// `User` and `User_2`, and only components some route reaches are kept.
import type { Handler, Route } from '../../ir.ts';
import type { JsonSchema } from '../../json-schema.ts';
import type { Component } from './registry.ts';
import { forEachRef, handlerSchemas } from './refs.ts';
import { UniqueNames } from '../../unique-names.ts';

const REF_PREFIX = '#/components/schemas/';

export class ComponentNames {
  /** Name → schema, in the order their bodies were completed (as a type walk would add them). */
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly names = new Map<string, string>();
  private readonly taken = new UniqueNames();

  constructor(private readonly components: ReadonlyMap<string, Component>) {}

  /** Names every component `schema` reaches that has no name yet. */
  meet(schema: unknown): void {
    forEachRef(schema, (key) => this.name(key));
  }

  /** `schema` with its `$ref`s pointing at the names `meet` gave out: a copy where it has any, else itself. */
  renamed<T>(schema: T): T {
    if (Array.isArray(schema)) {
      const items = schema.map((item) => this.renamed(item));
      return items.some((item, i) => item !== schema[i]) ? (items as T) : schema;
    }
    if (typeof schema !== 'object' || schema === null) return schema;
    let changed = false;
    const entries = Object.entries(schema).map(([keyword, inner]) => {
      const value = keyword === '$ref' && typeof inner === 'string' ? REF_PREFIX + this.names.get(inner)! : this.renamed(inner);
      changed ||= value !== inner;
      return [keyword, value];
    });
    return changed ? (Object.fromEntries(entries) as T) : schema;
  }

  private name(key: string): void {
    if (this.names.has(key)) return;
    const component = this.components.get(key)!;
    const name = this.taken.claim(component.wanted);
    this.names.set(key, name);
    this.meet(component.schema);
    this.schemas[name] = this.renamed(component.schema);
  }
}

export function nameComponents(routes: Route[], components: ReadonlyMap<string, Component>): { routes: Route[]; schemas: Record<string, JsonSchema> } {
  const names = new ComponentNames(components);
  for (const route of routes) names.meet(handlerSchemas(route.handler));
  return { routes: routes.map((route) => ({ ...route, handler: renamedHandler(route.handler, names) })), schemas: names.schemas };
}

function renamedHandler(handler: Handler, names: ComponentNames): Handler {
  if (handler.kind === 'builtin') return handler;
  const calls = { ...handler.calls, body: names.renamed(handler.calls.body) };
  return { ...handler, params: handler.params.map((p) => ({ ...p, schema: names.renamed(p.schema) })), calls, returns: names.renamed(handler.returns) };
}
