// Writes an N-route svc project for the benches: `routes/bench.ts` with the HTTP-bench
// routes and a few other closures, then controllers of 10 routes each (mixed static,
// one- and two-placeholder and optional patterns, class references and class names),
// ten controllers per route file, each file one group with a nested group per
// controller. Also `routes.json` (the same table for peer servers) and a tsconfig.json
// for `tsc --noEmit` on the same tree.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PARAMS_PATTERN, payload, STATIC_PATH } from '../servers/payload.ts';
import type { PeerRoute } from '../servers/routes.ts';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
/** Git-ignored and inside the package, so `'svc'` and node_modules resolve. */
export const benchTmp = join(repoRoot, 'test', '.tmp', 'bench');

export const ROUTES_PER_CONTROLLER = 10;
const CONTROLLERS_PER_FILE = 10;

export interface GeneratedProject {
  root: string;
  routeCount: number;
  routeFiles: string[];
  /** `routes.json`: the table in svc syntax, for the peer servers. */
  routeList: string;
}

interface FileRoute extends PeerRoute {
  line: string;
}

/** `routeCount` application routes (rounded up to a multiple of 10, at least 10). */
export async function generateProject(name: string, routeCount: number): Promise<GeneratedProject> {
  const root = join(benchTmp, name);
  await rm(root, { recursive: true, force: true });
  const files: Record<string, string> = { 'svc.json': svcJson(), 'tsconfig.json': tsconfig(root) };
  const table: PeerRoute[] = [];

  const benchRoutes = closureRoutes();
  files['routes/bench.ts'] = routeFile([], ['  const hello = ' + JSON.stringify(payload) + ';', ...benchRoutes.map((r) => `  ${r.line}`)]);
  table.push(...benchRoutes.map(({ method, pattern }) => ({ method, pattern })));

  const controllers = Math.max(0, Math.ceil(routeCount / ROUTES_PER_CONTROLLER) - 1);
  for (let first = 0; first < controllers; first += CONTROLLERS_PER_FILE) {
    const section = first / CONTROLLERS_PER_FILE;
    const count = Math.min(CONTROLLERS_PER_FILE, controllers - first);
    const { source, routes } = sectionFile(section, count);
    files[`routes/section${section}.ts`] = source;
    table.push(...routes);
    for (let c = 0; c < count; c++) files[`weave/Controllers/Section${section}/Item${c}Controller.ts`] = controller(section, c);
  }
  files['routes.json'] = JSON.stringify(table, null, 1);

  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  const routeFiles = Object.keys(files).filter((path) => path.startsWith('routes/'));
  return { root, routeCount: table.length, routeFiles, routeList: join(root, 'routes.json') };
}

/** A few rules, none of which denies the loopback client the benches use; metrics are on by default. */
function svcJson(): string {
  return JSON.stringify(
    {
      server: { host: '127.0.0.1', port: 6916 },
      ip: {
        blacklist: ['203.0.113.0/24', '2001:db8::/32'],
        routes: {
          '/admin': { whitelist: ['127.0.0.1', '::1'] },
          '/s0/c1': { blacklist: ['198.51.100.7'] },
          '/users': { whitelist: ['127.0.0.0/8', '::1', '10.0.0.0/8'] },
        },
      },
    },
    null,
    2,
  );
}

function tsconfig(root: string): string {
  const svcEntry = relative(root, join(repoRoot, 'runtime', 'index.ts'));
  return JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2023'],
        types: ['node'],
        strict: true,
        noEmit: true,
        allowImportingTsExtensions: true,
        skipLibCheck: true,
        verbatimModuleSyntax: true,
        paths: { svc: [svcEntry] },
      },
      include: ['routes', 'weave'],
    },
    null,
    2,
  );
}

function routeFile(imports: string[], body: string[]): string {
  return [`import type { Router } from 'svc';`, ...imports, '', 'export default (router: Router) => {', ...body, '};', ''].join('\n');
}

/** The HTTP-bench routes (answered exactly as the peer servers answer them) and eight more closures. */
function closureRoutes(): FileRoute[] {
  const route = (method: PeerRoute['method'], pattern: string, handler: string): FileRoute => ({
    method,
    pattern,
    line: `router.${method === 'DELETE' ? 'sewDelete' : `sew${method[0]}${method.slice(1).toLowerCase()}`}('${pattern}', ${handler});`,
  });
  return [
    route('GET', STATIC_PATH, '() => hello'),
    route('GET', PARAMS_PATTERN, '(id: string, postId: string) => ({ id, postId })'),
    route('GET', '/ping', "() => 'pong'"),
    route('GET', '/status', "() => ({ status: 'ok', uptime: process.uptime() })"),
    route('POST', '/echo', '() => ({ echoed: true })'),
    route('GET', '/search/{term?}', '(term?: string) => ({ term: term ?? null })'),
    route('GET', '/tags/{tag}', '(tag: string) => ({ tag })'),
    route('PUT', '/settings', '() => ({ saved: true })'),
    route('DELETE', '/sessions/{id}', '(id: string) => null'),
    route('GET', '/admin/report', '() => ({ rows: [] })'),
  ];
}

/** One route per controller method: [method, pattern, controller method, by name?]. */
const CONTROLLER_ROUTES: ReadonlyArray<readonly [PeerRoute['method'], string, string]> = [
  ['GET', '/items', 'index'],
  ['POST', '/items', 'store'],
  ['GET', '/items/{id}', 'show'],
  ['PUT', '/items/{id}', 'update'],
  ['DELETE', '/items/{id}', 'destroy'],
  ['GET', '/items/{id}/tags', 'tags'],
  ['GET', '/items/{id}/tags/{tag}', 'tag'],
  ['GET', '/search/{term?}', 'search'],
  ['GET', '/stats', 'stats'],
  ['GET', '/latest', 'latest'],
];

function sectionFile(section: number, count: number): { source: string; routes: PeerRoute[] } {
  const imports: string[] = [];
  const body = [`  router.group({ prefix: '/s${section}', namespace: 'Section${section}' }, (section) => {`];
  const routes: PeerRoute[] = [];
  for (let c = 0; c < count; c++) {
    const className = `Item${c}Controller`;
    // Even controllers by class reference, odd ones by name (resolved under the namespace).
    const byName = c % 2 === 1;
    if (!byName) imports.push(`import { ${className} } from '../weave/Controllers/Section${section}/${className}.js';`);
    const ref = byName ? `'${className}'` : className;
    body.push(`    section.group({ prefix: '/c${c}' }, (r) => {`);
    for (const [method, pattern, action] of CONTROLLER_ROUTES) {
      const call = method === 'DELETE' ? 'sewDelete' : `sew${method[0]}${method.slice(1).toLowerCase()}`;
      body.push(`      r.${call}('${pattern}', [${ref}, '${action}']);`);
      routes.push({ method, pattern: `/s${section}/c${c}${pattern}` });
    }
    body.push('    });');
  }
  body.push('  });');
  return { source: routeFile(imports, body), routes };
}

function controller(section: number, c: number): string {
  return `import { Controller } from 'svc';

export interface Item {
  id: string;
  name: string;
  tags: string[];
  /** Section ${section}, controller ${c}. */
  score: number;
}

const item = (id: string): Item => ({ id, name: 'item ' + id, tags: ['a', 'b'], score: ${section * 10 + c} });

export class Item${c}Controller extends Controller {
  /** List items */
  index(): Item[] {
    return [item('1'), item('2')];
  }

  /** Create an item */
  store(): Item {
    this.ctx.status(201);
    return item('new');
  }

  /** Show one item */
  show(id: string): Item {
    return item(id);
  }

  update(id: string): Item {
    return item(id);
  }

  destroy(id: string): null {
    return null;
  }

  tags(id: string): string[] {
    return item(id).tags;
  }

  tag(id: string, tag: string): { id: string; tag: string } {
    return { id, tag };
  }

  /** Search items by an optional term */
  search(term?: string): Item[] {
    return term ? [item(term)] : [];
  }

  stats(): { count: number; section: number } {
    return { count: 2, section: ${section} };
  }

  latest(): Item {
    return item('latest');
  }
}
`;
}
