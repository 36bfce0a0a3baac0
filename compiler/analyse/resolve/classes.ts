// Finding classes the way the route files name them: by reference (following import
// aliases through the type checker) or by the name a module exports them under.
import { statSync } from 'node:fs';
import { Node, ts, type ClassDeclaration, type ConstructorDeclaration, type MethodDeclaration, type Project } from 'ts-morph';
import { numericValue } from '../walk/literals.ts';

export type Found<T> = { ok: true; value: T } | { ok: false; problem: string };

/** The class an identifier or `ns.Name` refers to. */
export function classFromReference(node: Node): Found<ClassDeclaration> {
  const nameNode = Node.isPropertyAccessExpression(node) ? node.getNameNode() : node;
  const symbol = nameNode.getSymbol();
  if (!symbol) return { ok: false, problem: `'${node.getText()}': not defined in this file; import it` };
  // The name itself, or the namespace `ns` of `ns.Name`, may come from a type-only import.
  const imported = Node.isPropertyAccessExpression(node) ? node.getExpression().getSymbol() : symbol;
  if (imported?.getDeclarations().some(isTypeOnlyImport)) {
    return { ok: false, problem: `'${node.getText()}': imported with \`import type\`, which leaves no class at run time; import it as a value` };
  }
  const target = symbol.isAlias() ? symbol.getAliasedSymbol() : symbol;
  const declarations = target?.getDeclarations() ?? [];
  const cls = declarations.find((d) => Node.isClassDeclaration(d));
  if (cls) return { ok: true, value: cls };
  const held = declarations.some(holdsClass);
  return { ok: false, problem: `'${node.getText()}': not a class${held ? `, but a variable holding one; svc build reads controllers declared as classes: write \`class ${node.getText().split('.').at(-1)} { … }\`` : ''}` };
}

/** `const Users = class { … }` or `const Users = Admin.Users`: a class, perhaps, but not a declaration svc build can read. */
function holdsClass(declaration: Node): boolean {
  const initializer = Node.isVariableDeclaration(declaration) ? declaration.getInitializer() : undefined;
  return Node.isClassExpression(initializer) || Node.isIdentifier(initializer) || Node.isPropertyAccessExpression(initializer);
}

/** A class as a module exports it: the name to import and the file (absolute) to import it from. */
export interface ExportedAs {
  name: string;
  path: string;
}

/**
 * The name and file a reference's import reads the class under: `Child` from Child.ts
 * for `[Child, …]` even when Child.ts re-exports `Impl as Child`, so that it is named
 * as `['Child', …]` is. A local class or a default import has no exported name of its
 * own: its declared name and file.
 */
export function exportedAs(node: Node, cls: ClassDeclaration): ExportedAs {
  return importedAs(node) ?? { name: cls.getName() ?? node.getText(), path: cls.getSourceFile().getFilePath() };
}

function importedAs(node: Node): ExportedAs | null {
  if (Node.isPropertyAccessExpression(node)) {
    const namespace = node.getExpression().getSymbol()?.getDeclarations()[0];
    const file = Node.isNamespaceImport(namespace) ? namespace.getFirstAncestorByKind(ts.SyntaxKind.ImportDeclaration)?.getModuleSpecifierSourceFile() : undefined;
    return file ? { name: node.getName(), path: file.getFilePath() } : null;
  }
  const specifier = node.getSymbol()?.getDeclarations()[0];
  if (!Node.isImportSpecifier(specifier) || specifier.getName() === 'default') return null;
  const file = specifier.getImportDeclaration().getModuleSpecifierSourceFile();
  return file ? { name: specifier.getName(), path: file.getFilePath() } : null;
}

/** `import type { X }`, `import { type X }`, `import type X`: erased before the code runs. */
function isTypeOnlyImport(declaration: Node): boolean {
  if (Node.isImportSpecifier(declaration)) return declaration.isTypeOnly() || declaration.getImportDeclaration().isTypeOnly();
  if (Node.isImportClause(declaration)) return declaration.isTypeOnly();
  if (Node.isNamespaceImport(declaration)) return declaration.getParentIfKind(ts.SyntaxKind.ImportClause)?.isTypeOnly() ?? false;
  return false;
}

/** The class a project file exports under `name`. */
export function exportedClass(project: Project, path: string, name: string): Found<ClassDeclaration> {
  const file = project.getSourceFile(path);
  if (!file) return { ok: false, problem: absence(path) };
  const exported = file.getExportedDeclarations();
  const cls = exported.get(name)?.find((d) => Node.isClassDeclaration(d));
  if (cls) return { ok: true, value: cls };
  // A class exported as the default has no name to import it by: say so, rather than "no class".
  const byDefault = exported.get('default')?.some((d) => Node.isClassDeclaration(d) && d.getName() === name);
  const held = exported.get(name)?.some(holdsClass);
  const hint = byDefault ? `it exports ${name} as its default` : held ? `it exports ${name} as a variable holding a class, and svc build reads controllers declared as classes` : null;
  return { ok: false, problem: `does not export a class named ${name}${hint ? ` (${hint}: write \`export class ${name}\`)` : ''}` };
}

/** Why the project lacks a module: no such file, or one TypeScript could not read (analyse/index.ts). */
function absence(path: string): string {
  try {
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats === undefined) return 'does not exist';
    return stats.isDirectory() ? 'is a folder, not a file' : 'is not a readable file';
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // Names no file can have: too long for the file system, or holding a NUL byte.
    if (code === 'ENAMETOOLONG' || code === 'ERR_INVALID_ARG_VALUE') return 'does not exist';
    return code === 'ELOOP' ? 'is a link that leads back to itself' : `cannot be read (${code})`;
  }
}

/** The class and its base classes, nearest first. */
export function lineage(cls: ClassDeclaration): ClassDeclaration[] {
  const chain: ClassDeclaration[] = [];
  for (let current: ClassDeclaration | undefined = cls; current && !chain.includes(current); current = current.getBaseClass()) chain.push(current);
  return chain;
}

/**
 * An instance method, inherited ones included (the framework calls it on an instance).
 * Base classes are looked up only when the class itself lacks the method: finding a
 * base class asks the type checker, a real cost over a thousand routes.
 */
export function instanceMethod(cls: ClassDeclaration, name: string): MethodDeclaration | undefined {
  const own = ownMethod(cls, name);
  if (own) return own;
  for (const base of lineage(cls).slice(1)) {
    const method = ownMethod(base, name);
    if (method) return method;
  }
  return undefined;
}

const ownMethod = (cls: ClassDeclaration, name: string): MethodDeclaration | undefined =>
  cls.getInstanceMethods().find((m) => propertyKey(m) === name);

/**
 * The key a method has at run time: `'show'() {}` and `['show']() {}` are `show`, where
 * ts-morph's `getName()` keeps the quotes and brackets. `null` for a computed key
 * (`[Symbol.iterator]`) no route can name.
 */
function propertyKey(method: MethodDeclaration): string | null {
  const node = method.getNameNode();
  const key = Node.isComputedPropertyName(node) ? node.getExpression() : node;
  if (Node.isStringLiteral(key) || Node.isNoSubstitutionTemplateLiteral(key)) return key.getLiteralValue();
  if (Node.isNumericLiteral(key)) return String(numericValue(key));
  return Node.isComputedPropertyName(node) ? null : method.getName();
}

/**
 * `show = () => …` (or `= function …`): a property holding a function, which a route
 * cannot name (the analysis reads methods). Found so that SVC004 can say how to write it.
 */
export function functionProperty(cls: ClassDeclaration, name: string): boolean {
  return lineage(cls).some((c) =>
    c.getInstanceProperties().some((p) => {
      if (!Node.isPropertyDeclaration(p) || p.getName() !== name) return false;
      const value = p.getInitializer();
      return value !== undefined && (Node.isArrowFunction(value) || Node.isFunctionExpression(value));
    }),
  );
}

/** The property the runtime sets on each controller to the request context (runtime/server/bind.ts). */
export const CONTEXT_PROPERTY = 'ctx';

/**
 * The methods a route can name: those the framework may call from outside the class (not
 * `private`, `protected` or `#private`), but for the one its context property hides.
 */
export function instanceMethodNames(cls: ClassDeclaration): string[] {
  const names = lineage(cls).flatMap((c) => c.getInstanceMethods().filter(isPublic).map(propertyKey));
  return [...new Set(names.filter((name): name is string => name !== null && name !== CONTEXT_PROPERTY))].sort();
}

export const isPublic = (method: MethodDeclaration): boolean =>
  !method.getName().startsWith('#') && !method.hasModifier(ts.SyntaxKind.PrivateKeyword) && !method.hasModifier(ts.SyntaxKind.ProtectedKeyword);

/**
 * The constructor that runs on `new`: the nearest declared one, or none. Base classes
 * are looked up only past a class without one that extends another (see `instanceMethod`).
 */
export function effectiveConstructor(cls: ClassDeclaration): ConstructorDeclaration | undefined {
  const own = cls.getConstructors()[0];
  if (own || cls.getExtends() === undefined) return own;
  for (const base of lineage(cls).slice(1)) {
    const ctor = base.getConstructors()[0];
    if (ctor) return ctor;
  }
  return undefined;
}

export const isIdentifierName = (name: string): boolean => /^[A-Za-z_$][\w$]*$/.test(name);
