// The one description of svc.json: the validator walks it (validate.ts) and
// svc.schema.json is rendered from it (json-schema.ts), so the editor schema and
// `svc build` cannot disagree on keys, types, ranges or defaults.
import { DEFAULT_CONFIG, HEALTH_CHECK_BUDGET_MS, HEALTH_SERVICE_TIMEOUT_MS } from '../../runtime/config.ts';
import { checkDatabasePath, checkHost, checkIpEntry, warnIpEntry, warnRouteKey } from './checks.ts';
import { IP_ENTRY_PATTERN } from './ip-pattern.ts';

interface Described {
  description: string;
}

export interface ObjectShape extends Described {
  type: 'object';
  properties: Record<string, Shape>;
  required?: string[];
}

/** An object with free keys (ip.routes), each key checked by `keyPattern`. */
export interface MapShape extends Described {
  type: 'map';
  keyPattern: string;
  keyExpected: string;
  /** For a key that passed: what is suspicious about it, or null. */
  keyWarn?: (key: string) => string | null;
  values: Shape;
  default?: Record<string, unknown>;
}

export interface ArrayShape extends Described {
  type: 'array';
  items: Shape;
  default?: unknown[];
}

export interface StringShape extends Described {
  type: 'string';
  default?: string;
  enum?: string[];
  minLength?: number;
  /** Regex source, used as is by the validator and the schema. */
  pattern?: string;
  /** What a valid value looks like, for messages. */
  expected?: string;
  /** Checks beyond `pattern` (IP syntax); returns what is wrong, or null. */
  check?: (value: string) => string | null;
  /** For a value that passed: what is suspicious about it, or null. */
  warn?: (value: string) => string | null;
}

export interface IntegerShape extends Described {
  type: 'integer';
  default?: number;
  minimum: number;
  maximum?: number;
  /** Why the maximum is what it is, for messages. */
  maximumReason?: string;
}

export interface BooleanShape extends Described {
  type: 'boolean';
  default: boolean;
}

export type Shape = ObjectShape | MapShape | ArrayShape | StringShape | IntegerShape | BooleanShape;

// A path segment: RFC 3986 pchar without `%` (paths are matched decoded), and never
// `.` or `..` (dot segments are resolved away before matching, so they would never match).
const SEGMENT = "(?!\\.\\.?(?:/|$))[A-Za-z0-9._~!$&'()*+,;=:@-]+";
const ENDPOINT_PATH_PATTERN = `^/?${SEGMENT}(?:/${SEGMENT})*/?$`;
// An `ip.routes` key must be able to name any route: route literals may hold non-ASCII
// characters (`/über-uns`) or a space (`/a b`), which requests reach decoded, so keys may
// too. Not a `%` (keys are decoded already), `?`, `#`, a brace or a control character.
const KEY_SEGMENT = "(?!\\.\\.?(?:/|$))[^\\u0000-\\u001f\\u007f/%?#{}]+";
const ROUTE_KEY_PATTERN = `^(?:/|/?${KEY_SEGMENT}(?:/${KEY_SEGMENT})*/?)$`;
const PLAIN_PATH = 'no placeholders, %-escapes, query, or empty, "." or ".." segments';

const d = DEFAULT_CONFIG;
/** Node's timers hold at most 2^31 - 1 ms (about 24.8 days); a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const ipList = (description: string): ArrayShape => ({
  type: 'array',
  description,
  default: [],
  items: {
    type: 'string',
    description: 'An IPv4 or IPv6 address or CIDR range: "10.0.0.5", "10.0.0.0/24", "::1", "2001:db8::/32". IPv4-mapped IPv6 is treated as IPv4.',
    pattern: IP_ENTRY_PATTERN,
    expected: 'an IP address or CIDR range',
    check: checkIpEntry,
    warn: warnIpEntry,
  },
});

const ipLevel = (whitelist: string, blacklist: string): Record<string, Shape> => ({
  whitelist: ipList(whitelist),
  blacklist: ipList(blacklist),
});

const host = (description: string, defaultValue?: string): StringShape => ({
  type: 'string',
  description,
  default: defaultValue,
  pattern: '^[A-Za-z0-9.:-]+$',
  expected: 'a host name or IP address',
  check: checkHost,
});

const endpoint = (name: string, defaultValue: string): StringShape => ({
  type: 'string',
  description: `URL path of the built-in ${name} endpoint, e.g. "${defaultValue}" (a leading slash is optional).`,
  default: defaultValue,
  pattern: ENDPOINT_PATH_PATTERN,
  expected: `a plain URL path like "svc/docs" (${PLAIN_PATH})`,
});

export const svcJsonShape: ObjectShape = {
  type: 'object',
  description: 'Configuration of an svc application. Every key is optional.',
  properties: {
    $schema: { type: 'string', description: 'The JSON Schema this file follows, for editors: "./node_modules/svc/svc.schema.json".' },
    server: {
      type: 'object',
      description: 'Where `svc tread` and `svc serve` listen, and request limits.',
      properties: {
        host: host('Address to listen on; "::" listens on IPv6 and IPv4.', d.server.host),
        port: { type: 'integer', description: 'TCP port; 0 picks a free one.', default: d.server.port, minimum: 0, maximum: 65535 },
        bodyLimit: { type: 'integer', description: 'Largest accepted request body in bytes; larger ones get 413.', default: d.server.bodyLimit, minimum: 0 },
        maxUrlLength: { type: 'integer', description: 'Longest accepted request target (path and query) in characters; longer ones get 414. A request line and headers over 16 KiB in total get 431, or 414 when the target alone is too long.', default: d.server.maxUrlLength, minimum: 1 },
        headersTimeoutMs: { type: 'integer', description: 'Milliseconds a client has to send the request headers (against slowloris); then 408 and the connection is closed. At most requestTimeoutMs.', default: d.server.headersTimeoutMs, minimum: 1, maximum: MAX_TIMER_MS },
        requestTimeoutMs: { type: 'integer', description: 'Milliseconds a client has to send the whole request, body included; then 408 and the connection is closed.', default: d.server.requestTimeoutMs, minimum: 1, maximum: MAX_TIMER_MS },
        keepAliveTimeoutMs: { type: 'integer', description: 'Milliseconds an idle keep-alive connection stays open. Behind a load balancer, set it above the balancer\'s idle timeout.', default: d.server.keepAliveTimeoutMs, minimum: 1, maximum: MAX_TIMER_MS },
        shutdownGraceMs: { type: 'integer', description: 'On SIGTERM or SIGINT, milliseconds `svc serve` lets in-flight requests finish before cutting their connections.', default: d.server.shutdownGraceMs, minimum: 0, maximum: MAX_TIMER_MS },
      },
    },
    endpoints: {
      type: 'object',
      description: 'Paths of the built-in endpoints (all GET).',
      properties: {
        docs: endpoint('docs (Swagger UI)', d.endpoints.docs),
        health: endpoint('health (JSON status)', d.endpoints.health),
        dashboard: endpoint('dashboard (HTML)', d.endpoints.dashboard),
        metrics: endpoint('metrics (Prometheus text or JSON)', d.endpoints.metrics),
        guarded: {
          type: 'boolean',
          description: 'Require `Authorization: Bearer <SVC_GUARD_TOKEN>` on the built-in endpoints.',
          default: d.endpoints.guarded,
        },
      },
    },
    ip: {
      type: 'object',
      description: 'IP allow and deny lists, compiled at build time (see docs/ip-rules.md).',
      properties: {
        ...ipLevel('Global allow list: when not empty, only these addresses get through (unless a route level allows them).', 'Global deny list, for every request.'),
        trustProxy: ipList('Proxies whose X-Forwarded-For header is believed; from anyone else it is ignored.'),
        routes: {
          type: 'map',
          description:
            'Per-path rules. A key covers that path and everything below it ("/admin" covers "/admin/users", not "/administrator"); the longest matching key decides first, the global lists last. Without this key, "/admin" is open to loopback clients only; `{}` has no per-path rules.',
          keyPattern: ROUTE_KEY_PATTERN,
          keyExpected: `a plain URL path like "/admin" (${PLAIN_PATH})`,
          keyWarn: warnRouteKey,
          values: {
            type: 'object',
            description: 'Rules for one path and everything below it.',
            properties: ipLevel(
              'When not empty, only these addresses reach the path (this overrides the global lists).',
              'Addresses denied on the path.',
            ),
          },
          default: d.ip.routes,
        },
      },
    },
    database: {
      type: 'object',
      description: 'The application database.',
      properties: {
        driver: { type: 'string', description: 'Database driver.', default: d.database.driver, enum: ['sqlite'] },
        path: { type: 'string', description: 'SQLite file, relative to the project root.', default: d.database.path, minLength: 1, check: checkDatabasePath },
      },
    },
    cache: {
      type: 'object',
      description: 'Response cache (ShoeCacheKnots).',
      properties: {
        ttl: { type: 'integer', description: 'Default time to live of a cached response, in seconds.', default: d.cache.ttl, minimum: 0 },
      },
    },
    health: {
      type: 'object',
      description: 'The health endpoint.',
      properties: {
        services: {
          type: 'array',
          description: 'TCP services the health endpoint checks, each reported under its name.',
          default: [],
          items: {
            type: 'object',
            description: 'A service reached by opening a TCP connection.',
            required: ['name', 'host', 'port'],
            properties: {
              name: { type: 'string', description: 'Name shown in the health report.', minLength: 1 },
              host: host('Host name or IP address of the service.'),
              port: { type: 'integer', description: 'TCP port of the service.', minimum: 1, maximum: 65535 },
              timeoutMs: { type: 'integer', description: `Connection timeout in milliseconds (default ${HEALTH_SERVICE_TIMEOUT_MS}); at most ${HEALTH_CHECK_BUDGET_MS}, after which the health endpoint cuts off every check.`, minimum: 1, maximum: HEALTH_CHECK_BUDGET_MS, maximumReason: `the health endpoint cuts off every check after ${HEALTH_CHECK_BUDGET_MS} ms` },
            },
          },
        },
      },
    },
    logs: {
      type: 'object',
      description: 'shoebox/logs/svc.log rotation.',
      properties: {
        maxBytes: { type: 'integer', description: 'Size at which svc.log is rotated, in bytes.', default: d.logs.maxBytes, minimum: 1 },
        keep: { type: 'integer', description: 'How many rotated files to keep.', default: d.logs.keep, minimum: 0 },
      },
    },
  },
};
