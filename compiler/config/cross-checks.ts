// Checks across keys of a validated svc.json, which no single-value check can see:
// endpoints on the same path, ip.routes keys that name the same path once normalised,
// a headers timeout longer than the request's, health services with the same name. Paths are normalised here, in place.
import { error, type Diagnostic } from '../diagnostics.ts';
import type { SourceLocation } from '../ir.ts';
import type { SvcConfig } from '../../runtime/config.ts';

const ENDPOINT_NAMES = ['docs', 'health', 'dashboard', 'metrics'] as const;

/** `/svc/docs/` → `svc/docs`: endpoints are stored without slashes at either end, as in the defaults. */
const endpointPath = (path: string): string => path.replace(/^\/+|\/+$/g, '');

/** `admin/` → `/admin`: route keys are canonical paths, compared with request paths. */
const routeKey = (key: string): string => `/${endpointPath(key)}`;

/**
 * `locations`: where each key written in svc.json is; a default that was not written is
 * reported at `unwritten` (the file's start).
 */
export function settle(config: SvcConfig, locations: Readonly<Record<string, SourceLocation>>, unwritten: SourceLocation): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const where = (jsonPath: string): SourceLocation => locations[jsonPath] ?? unwritten;
  /**
   * Reports `jsonPath` when `value` was already claimed by an earlier key; at the earlier
   * key instead when only that one is written, as a default clashing with a written value
   * is fixed where the value is written.
   */
  const claim = (claimed: Map<string, string>, value: string, jsonPath: string, clash: (other: string) => string): void => {
    const first = claimed.get(value);
    if (first === undefined) return void claimed.set(value, jsonPath);
    const [at, other] = jsonPath in locations || !(first in locations) ? [jsonPath, first] : [first, jsonPath];
    diagnostics.push(error('SVC007', `${at}: ${clash(other)}`, where(at)));
  };

  const endpoints = new Map<string, string>();
  for (const name of ENDPOINT_NAMES) {
    const path = endpointPath(config.endpoints[name]);
    config.endpoints[name] = path;
    claim(endpoints, path, `endpoints.${name}`, (first) => `/${path} is already the path of ${first}`);
  }
  // The docs endpoint serves its files at <docs>/<file>: an endpoint there would take the
  // place of one (openapi.json, swagger-ui.css…), and Swagger UI would not load.
  const docsFiles = `${config.endpoints.docs}/`;
  for (const name of ENDPOINT_NAMES) {
    const path = config.endpoints[name];
    if (!path.startsWith(docsFiles) || path.includes('/', docsFiles.length)) continue;
    const jsonPath = `endpoints.${name}`;
    diagnostics.push(error('SVC007', `${jsonPath}: /${path} is the path of a file of endpoints.docs (/${docsFiles}<file>); choose a path outside it`, where(jsonPath)));
  }

  const keys = new Map<string, string>();
  const routes: SvcConfig['ip']['routes'] = {};
  for (const [key, rules] of Object.entries(config.ip.routes)) {
    const path = routeKey(key);
    claim(keys, path, `ip.routes.${key}`, (first) => `${path} is the same path as ${first}`);
    routes[path] ??= rules;
  }
  config.ip.routes = routes;

  const { headersTimeoutMs, requestTimeoutMs } = config.server;
  if (headersTimeoutMs > requestTimeoutMs) {
    // Node refuses the pair when the server starts; here it is a build error with its place.
    const jsonPath = 'server.headersTimeoutMs';
    diagnostics.push(error('SVC007', `${jsonPath} (${headersTimeoutMs}) must not exceed server.requestTimeoutMs (${requestTimeoutMs}): the headers are part of the request`, where(jsonPath)));
  }

  const services = new Map<string, string>();
  config.health.services.forEach((service, i) => {
    claim(services, service.name, `health.services[${i}].name`, (first) => `"${service.name}" is already the name of ${first.replace(/\.name$/, '')}`);
  });
  return diagnostics;
}
