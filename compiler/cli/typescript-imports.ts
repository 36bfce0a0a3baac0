// Lets `import()` load the project's own TypeScript (cobble's migrations). bin/svc.js
// runs the CLI from a JavaScript bundle with no TypeScript loader, so tsx registers here,
// once, on first need. Run from the sources, this file was itself loaded as TypeScript:
// a loader is already in place and a second one would only transform every file twice.
let ready: Promise<void> | undefined;

export function allowTypeScriptImports(): Promise<void> {
  ready ??= import.meta.url.endsWith('.ts') ? Promise.resolve() : import('tsx/esm/api').then(({ register }) => void register());
  return ready;
}
