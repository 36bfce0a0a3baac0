// Per-build state of schema generation: the named schemas (OpenAPI components), the
// SVC009 warnings, and the per-type caches that keep a 1,000-route build to one walk
// of each type however many handlers mention it.
import { relative, sep } from 'node:path';
import type { ts } from 'ts-morph';
import { warning, type Diagnostic } from '../../diagnostics.ts';
import type { JsonSchema } from './json-schema.ts';
import { UniqueNames } from './unique-names.ts';

export class SchemaRegistry {
  /** Component name → schema, for `$ref: '#/components/schemas/<name>'`. */
  readonly schemas: Record<string, JsonSchema> = {};
  readonly diagnostics: Diagnostic[] = [];
  /** Schemas of anonymous types, by type identity (the checker interns types). */
  readonly inline = new Map<ts.Type, JsonSchema>();
  /** Component name of each named type met so far; set before its body is walked, so recursion ends in a `$ref`. */
  readonly names = new Map<ts.Type, string>();
  private readonly taken = new UniqueNames();

  constructor(readonly root: string) {}

  /** Two different types that want the same name (two `User` interfaces) get `User` and `User_2`. */
  claimName(type: ts.Type, wanted: string): string {
    const name = this.taken.claim(wanted);
    this.names.set(type, name);
    return name;
  }

  warn(text: string, node: ts.Node): void {
    const file = node.getSourceFile();
    const { line, character } = file.getLineAndCharacterOfPosition(node.getStart(file));
    const at = { file: relative(this.root, file.fileName).split(sep).join('/'), line: line + 1, col: character + 1 };
    this.diagnostics.push(warning('SVC009', text, at));
  }
}
