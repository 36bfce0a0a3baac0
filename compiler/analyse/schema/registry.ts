// Per-file state of schema generation: the component bodies met so far (by key, see
// type-names.ts), and the per-type caches that keep a route file to one walk of each type
// however many of its handlers mention it. Component names are not given out here: a
// `$ref` holds the component's key until naming.ts names the whole table's components.
import type { ts } from 'ts-morph';
import type { Reporter } from '../reporter.ts';
import type { JsonSchema } from '../../json-schema.ts';
import type { ComponentId } from './type-names.ts';

export interface Component {
  /** The name the type asks for; naming.ts makes it unique. */
  wanted: string;
  schema: JsonSchema;
}

export class SchemaRegistry {
  /** Component key → body, with `$ref`s to other components by key. */
  readonly components = new Map<string, Component>();
  /** Schemas of anonymous types, by type identity (the checker interns types). */
  readonly inline = new Map<ts.Type, JsonSchema>();
  /** The component key of each named type met so far; set before its body is walked, so recursion ends in a `$ref`. */
  readonly keys = new Map<ts.Type, string>();

  constructor(readonly reporter: Reporter) {}

  /** Whether `id` is new: only then is its body walked (two type objects can share a key). */
  claim(type: ts.Type, id: ComponentId): boolean {
    this.keys.set(type, id.key);
    if (this.components.has(id.key)) return false;
    this.components.set(id.key, { wanted: id.name, schema: {} });
    return true;
  }

  warn(text: string, node: ts.Node): void {
    this.reporter.warn('SVC009', text, node);
  }
}
