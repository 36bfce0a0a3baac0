// The function a call runs, when it is the application's own and so worth reading for what
// it asks of the request: a function declaration, a method (`this.input()`, a static
// `Note.findOrFail(id)`), an arrow or function expression held by a variable or an object
// property, or a class's constructor (`new NotFound()`, `super(…)`; a base's for a class
// that declares none). Known from the checker's symbol, so an imported helper counts under
// any name. A package's functions and svc's own are not: they are not the application's to
// document, and reading them would cost every build.
import { ts } from 'ts-morph';
import { frameworkRuntime } from '../../framework.ts';
import { constructingClass } from './constructing-class.ts';

export type FollowedFunction = ts.FunctionLikeDeclaration & { body: ts.Node };

export function followedFunction(call: ts.CallExpression | ts.NewExpression, checker: ts.TypeChecker): FollowedFunction | undefined {
  const callee = call.expression;
  const name = ts.isPropertyAccessExpression(callee) ? callee.name : ts.isIdentifier(callee) || callee.kind === ts.SyntaxKind.SuperKeyword ? callee : undefined;
  let symbol = name && checker.getSymbolAtLocation(name);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  if (symbol) symbol = constructingClass(symbol, checker);
  // Of an overloaded function, the declaration with the body.
  for (const declaration of symbol?.declarations ?? []) {
    const fn = functionOf(declaration);
    if (fn !== undefined && isApplicationFile(fn.getSourceFile())) return fn;
  }
  return undefined;
}

function functionOf(declaration: ts.Declaration): FollowedFunction | undefined {
  // `new Class()` and `super()` run the class's constructor.
  if (ts.isClassLike(declaration)) return declaration.members.find((member) => ts.isConstructorDeclaration(member) && member.body !== undefined) as FollowedFunction | undefined;
  const held = ts.isVariableDeclaration(declaration) || ts.isPropertyAssignment(declaration) || ts.isPropertyDeclaration(declaration) ? declaration.initializer : declaration;
  const fn = held !== undefined && (ts.isFunctionDeclaration(held) || ts.isMethodDeclaration(held) || ts.isArrowFunction(held) || ts.isFunctionExpression(held)) ? held : undefined;
  return fn?.body !== undefined ? (fn as FollowedFunction) : undefined;
}

const isApplicationFile = (file: ts.SourceFile): boolean =>
  !file.isDeclarationFile && !file.fileName.includes('/node_modules/') && !file.fileName.startsWith(frameworkRuntime);
