// `.svc/manifest.json`: what the compiler tells the runtime about the route table.
import type { SvcConfig } from './config.ts';

export type ManifestHandler =
  | { kind: 'closure' }
  | { kind: 'controller'; module: string; className: string; method: string }
  | { kind: 'builtin'; name: 'docs' | 'docs-asset' | 'health' | 'dashboard' | 'metrics' };

export interface ManifestMiddleware {
  module: string; // project-relative, or 'svc'
  className: string;
  args: unknown[];
}

export interface ManifestRoute {
  id: number;
  method: string;
  pattern: string;
  /** Placeholder names in order. */
  params: string[];
  handler: ManifestHandler;
  middleware: ManifestMiddleware[];
  /** `routes/api.ts:12:3`, for logs and `svc route list`. */
  source: string;
}

export interface Manifest {
  framework: string;
  routes: ManifestRoute[];
  /** Route files in replay order (`routes/api.ts`…). */
  files: string[];
  config: SvcConfig;
}
