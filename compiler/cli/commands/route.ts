// `svc route list` prints the route table; `svc route docs` writes the OpenAPI document
// into shoebox/outsole/. Both analyse the project without writing .svc/.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CAC } from 'cac';
import { diskRefusal } from '../disk-refusal.ts';
import { HTTP_METHODS, type HttpMethod, type MiddlewareRef, type Route, type RouteTable } from '../../ir.ts';
import { actionOption } from '../action-options.ts';
import { printDiagnostics } from '../print.ts';
import { UsageError } from '../usage-error.ts';
import { formatLocation } from '../../locations.ts';
import { escapeControl } from '../../../runtime/shoebox/log.ts';

interface ListOptions {
  json?: boolean;
  method?: string;
  path?: string | number;
}

export function register(cli: CAC): void {
  const command = cli.command('route <action>', 'Routes: `list` prints the route table, `docs` writes shoebox/outsole/openapi.json');
  actionOption(command, '--json', 'print the routes as JSON', ['list']);
  actionOption(command, '--method <method>', 'only routes of this HTTP method, e.g. --method GET', ['list']);
  actionOption(command, '--path <prefix>', 'only routes whose path starts with this prefix, e.g. --path /users', ['list']);
  command.action(async (action: string, options: ListOptions) => {
    if (action === 'list') return list(process.cwd(), options);
    if (action === 'docs') return docs(process.cwd());
    throw new UsageError(`Unknown route action "${action}": use \`svc route list\` or \`svc route docs\`.`);
  });
}

async function list(root: string, options: ListOptions): Promise<number> {
  const method = methodFilter(options.method);
  const prefix = options.path === undefined ? '' : `/${String(options.path).replace(/^\/+/, '')}`;
  const table = await routeTable(root, Boolean(options.json)); // `--json --json` gives [true, true]
  if (!table) return 1;
  const rows = table.routes
    .filter((route) => (!method || route.method === method) && route.pattern.startsWith(prefix))
    .map(row);
  console.log(options.json ? JSON.stringify(rows, null, 2) : formatTable(rows));
  return 0;
}

async function docs(root: string): Promise<number> {
  const table = await routeTable(root);
  if (!table) return 1;
  const { emitOpenApi, readApiInfo } = await import('../../emit/openapi/index.ts');
  const { copySwaggerAssets } = await import('../../emit/swagger-assets.ts');
  const outsole = join(root, 'shoebox', 'outsole');
  try {
    await mkdir(outsole, { recursive: true });
    await writeFile(join(outsole, 'openapi.json'), emitOpenApi(table, await readApiInfo(root)));
    await copySwaggerAssets(root);
  } catch (e) {
    const refused = diskRefusal(e, 'svc route docs writes shoebox/outsole/openapi.json and shoebox/outsole/docs/ in the project');
    if (refused === null) throw e;
    console.error(refused);
    return 1;
  }
  console.log('svc: wrote shoebox/outsole/openapi.json and the Swagger UI assets in shoebox/outsole/docs/');
  return 0;
}

/** The analysed table, or null (diagnostics printed) when the project does not compile. */
/**
 * The project's route table, or null once its errors are printed: as JSON on stdout for
 * `--json` (what `svc build --json` prints), where a script reads; warnings of a table
 * that builds go to stderr, leaving stdout to the routes.
 */
async function routeTable(root: string, json = false): Promise<RouteTable | null> {
  const { build } = await import('../../build.ts'); // ts-morph loads only when needed
  const result = await build(root, { write: false });
  printDiagnostics(result.diagnostics, json && !result.ok);
  return result.ok ? result.table : null;
}

function methodFilter(method: string | undefined): HttpMethod | undefined {
  if (method === undefined) return undefined;
  const upper = String(method).toUpperCase();
  if (!(HTTP_METHODS as readonly string[]).includes(upper)) throw new UsageError(`--method must be one of ${HTTP_METHODS.join(', ')}, got "${method}"`);
  return upper as HttpMethod;
}

interface Row {
  method: HttpMethod;
  path: string;
  handler: string;
  middleware: string[];
  source: string;
  builtin: boolean;
}

function row(route: Route): Row {
  const { handler, loc } = route;
  return {
    method: route.method,
    path: route.pattern,
    handler: handler.kind === 'controller' ? `${handler.className}.${handler.method}` : handler.kind === 'closure' ? 'closure' : `builtin:${handler.name}`,
    middleware: route.middleware.map(middlewareText),
    source: formatLocation(loc),
    builtin: handler.kind === 'builtin',
  };
}

/** `AuthMiddleware`, `RateLimitKnots(10, 60)`. */
const middlewareText = (m: MiddlewareRef): string => (m.args.length ? `${m.className}(${m.args.map((a) => JSON.stringify(a)).join(', ')})` : m.className);

function formatTable(rows: Row[]): string {
  const header = ['METHOD', 'PATH', 'HANDLER', 'MIDDLEWARE', 'SOURCE'];
  const cells = rows.map((r) => [r.method, printable(r.path), r.handler, r.middleware.join(', ') || '-', r.source]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]): string => c.map((text, i) => (i === c.length - 1 ? text : text.padEnd(widths[i]!))).join('  ');
  const builtins = rows.filter((r) => r.builtin).length;
  const count = `${rows.length} route${rows.length === 1 ? '' : 's'}${builtins ? ` (${builtins} built-in)` : ''}`;
  return [line(header), ...cells.map(line), '', count].join('\n');
}

/**
 * A pattern may hold a control character (a request's `%1B` reaches it decoded): in a
 * terminal it would move the cursor or recolour the table, so it is shown as `\u001b`.
 */
const printable = (text: string): string => text.replace(/[\x00-\x1f\x7f-\x9f]/g, escapeControl);
