// Classes whose declared properties JSON never sees: they live on the prototype.
import { ts } from 'ts-morph';

/**
 * A class of JavaScript or of the web platform as lib.d.ts and @types/node declare one: an
 * interface beside a global `var` of its name that constructs it (`interface ReadableStream`,
 * `var ReadableStream: { new(): ReadableStream }`). What the interface declares as
 * properties are getters on the prototype (`locked`, `signal`), which JSON skips: `{}`.
 */
export function isPlatformClass(type: ts.Type, checker: ts.TypeChecker): boolean {
  const symbol = type.getSymbol();
  const value = symbol?.valueDeclaration;
  if (!symbol || !value || !(symbol.flags & ts.SymbolFlags.Interface) || !(symbol.flags & ts.SymbolFlags.Variable)) return false;
  if (!(symbol.declarations ?? []).every(isPlatformDeclaration)) return false;
  return checker.getTypeOfSymbolAtLocation(symbol, value).getConstructSignatures().length > 0;
}

/** In TypeScript's lib files (not all of them say `no-default-lib`) or @types/node, not in a package whose classes may have fields. */
const isPlatformDeclaration = (node: ts.Node): boolean => {
  const file = node.getSourceFile();
  return file.hasNoDefaultLib || /\/node_modules\/(typescript\/lib|@types\/node)\//.test(file.fileName);
};
