// .svc/entry.ts: the bundle's entry point (templates/entry.hbs).
import { posix } from 'node:path';
import type { RouteTable } from '../ir.ts';
import { UniqueNames } from '../unique-names.ts';
import { renderTemplate } from './templates.ts';
import { compareText } from '../text-order.ts';

interface Import {
  local: string;
  specifier: string;
}

export function emitEntry(table: RouteTable): string {
  const names = new UniqueNames();
  for (const name of RESERVED) names.claim(name); // the template's own bindings
  const routeFiles: Import[] = table.files.map((file) => ({
    local: names.claim(identifier(`${posix.basename(file, '.ts')}Routes`)),
    specifier: fromOutDir(file),
  }));
  const classes = namedClasses(table).map(([module, className]) => {
    const local = names.claim(identifier(className));
    return {
      binding: local === className ? className : `${className} as ${local}`,
      key: `${module}#${className}`,
      local,
      specifier: module === 'svc' ? 'svc' : fromOutDir(module),
    };
  });
  return renderTemplate('entry.hbs', { routeFiles, classes });
}

/** Classes a route file names by string: the runtime cannot reach them through the replay. */
function namedClasses(table: RouteTable): Array<[module: string, className: string]> {
  const keys = new Map<string, [string, string]>();
  for (const route of table.routes) {
    const { handler } = route;
    if (handler.kind === 'controller' && handler.referencedBy === 'name') {
      keys.set(`${handler.module}#${handler.className}`, [handler.module, handler.className]);
    }
    for (const m of route.middleware) {
      if (m.referencedBy === 'name') keys.set(`${m.module}#${m.className}`, [m.module, m.className]);
    }
  }
  return [...keys.entries()].sort(([a], [b]) => compareText(a, b)).map(([, value]) => value);
}

const fromOutDir = (projectPath: string): string => `../${projectPath}`;

/** A JavaScript identifier from a file or class name. */
const identifier = (wanted: string): string => wanted.replace(/[^A-Za-z0-9_$]/g, '_').replace(/^(?=\d)/, '_');

const RESERVED = ['app', 'compiledApp', 'matchCanonical', 'handler', 'createHandler', 'readBuildJson', 'CompiledApp', 'HandlerOptions', 'Manifest', 'URL'];
