// The parts of .svc/manifest.json and .svc/ip-tables.json the server relies on, checked
// before it starts. Both are svc build's own output, but they are files: one damaged by
// hand or by a half-finished copy must stop the server with "run svc build", never fail
// on the first request, and above all never switch the IP rules off.
import { ipHandlerOptions, type IpTables } from '../ip/index.ts';
import type { Manifest } from '../manifest.ts';
import type { CompiledApp } from './app.ts';
import { StaleBuildError } from './stale-build-error.ts';

type Check = (value: unknown) => boolean;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const arrayOf = (item: Check): Check => (value) => Array.isArray(value) && value.every(item);
const isString: Check = (value) => typeof value === 'string';
const fields = (shape: Record<string, Check>): Check => (value) => isObject(value) && Object.entries(shape).every(([key, check]) => check(value[key]));
const recordOf = (item: Check): Check => (value) => isObject(value) && Object.values(value).every(item);

const ipList = fields({ v4: arrayOf(isString), v6: arrayOf(isString) });
const ipLevel = fields({ whitelist: ipList, blacklist: ipList });
const ipTables = fields({ global: ipLevel, routes: recordOf(ipLevel), trustProxy: ipList });

const manifest = fields({
  routes: arrayOf(fields({ method: isString, pattern: isString, params: arrayOf(isString), handler: isObject, middleware: arrayOf(isObject), source: isString })),
  files: arrayOf(isString),
  config: fields({ server: isObject, endpoints: isObject, ip: isObject, database: isObject, cache: isObject, health: isObject, logs: isObject }),
});

export function checkBuildData(app: CompiledApp): void {
  checkManifest(app.manifest);
  if (!ipTables(app.ipTables)) throw damaged('ip-tables.json');
}

/** The build's IP rules, compiled: an entry svc build would never write (`"x"`) stops the start like any other damage. */
export function compiledIpRules(app: CompiledApp): ReturnType<typeof ipHandlerOptions> {
  try {
    return ipHandlerOptions(app.ipTables as IpTables);
  } catch {
    throw damaged('ip-tables.json');
  }
}

/**
 * A route's id is its place in the list, which the dispatcher answers with and the route
 * table and the metrics index by: an id edited to 1e15 failed the start with a stack
 * (a counter array of that length), to -1 or "x" answered that route with 500.
 */
const idsInPlace = (value: unknown): boolean => (value as Manifest).routes.every((route, i) => route.id === i);

export function checkManifest(value: unknown): Manifest {
  if (!manifest(value) || !idsInPlace(value)) throw damaged('manifest.json');
  return value as Manifest;
}

const damaged = (file: string): StaleBuildError => new StaleBuildError(`.svc/${file} does not hold what svc build writes (it was edited or damaged)`);
