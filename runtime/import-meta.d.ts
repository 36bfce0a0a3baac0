// Set by `svc build` in the bundle (compiler/bundle/), relative to the project root, and
// by bin/cli-bundle.js in the CLI's bundle, absolute: where the framework's own files
// are, so a project anywhere on disk finds svc's default views and templates.
interface ImportMeta {
  readonly svcRoot?: string;
}
