// .svc/manifest.json: the part of the route table the runtime needs (runtime/manifest.ts).
import type { Manifest, ManifestHandler, ManifestRoute } from '../../runtime/manifest.ts';
import type { Handler, Route, RouteTable } from '../ir.ts';
import { frameworkVersion } from '../version.ts';
import { formatLocation } from '../locations.ts';

export function emitManifest(table: RouteTable): string {
  const manifest: Manifest = {
    framework: frameworkVersion(),
    routes: table.routes.map(manifestRoute),
    files: table.files,
    config: table.config,
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

function manifestRoute(route: Route): ManifestRoute {
  return {
    id: route.id,
    method: route.method,
    pattern: route.pattern,
    params: route.segments.flatMap((s) => (s.kind === 'param' ? [s.name] : [])),
    handler: manifestHandler(route.handler),
    middleware: route.middleware.map((m) => ({ module: m.module, className: m.className, args: m.args })),
    source: formatLocation(route.loc),
  };
}

function manifestHandler(handler: Handler): ManifestHandler {
  switch (handler.kind) {
    case 'closure':
      return { kind: 'closure' };
    case 'controller':
      return { kind: 'controller', module: handler.module, className: handler.className, method: handler.method };
    case 'builtin':
      return { kind: 'builtin', name: handler.name };
  }
}
