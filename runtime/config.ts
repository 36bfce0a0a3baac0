// svc.json after validation, with every default filled in (SPEC §6). The compiler
// validates it; the runtime reads it from the manifest.
export interface IpRules {
  whitelist: string[];
  blacklist: string[];
}

export interface SvcConfig {
  server: {
    host: string;
    port: number;
    bodyLimit: number;
    /** Longest accepted request target (path and query) in characters; longer ones get 414. */
    maxUrlLength: number;
    /** Against slowloris: time allowed to receive a request's headers, and the whole request. */
    headersTimeoutMs: number;
    requestTimeoutMs: number;
    /** How long an idle keep-alive connection stays open. */
    keepAliveTimeoutMs: number;
    /** On SIGTERM/SIGINT, how long in-flight requests may take before their connections are cut. */
    shutdownGraceMs: number;
  };
  /** Paths without slashes at either end (`svc/docs`), whatever svc.json wrote: serve them at `/${path}`. */
  endpoints: { docs: string; health: string; dashboard: string; metrics: string; guarded: boolean };
  /** Route keys normalised to canonical paths (`/admin`). */
  ip: IpRules & { trustProxy: string[]; routes: Record<string, IpRules> };
  database: { driver: 'sqlite'; path: string };
  cache: { ttl: number };
  health: { services: HealthService[] };
  logs: { maxBytes: number; keep: number };
}

/** The health endpoint cuts every check off after this long, so that it answers promptly. */
export const HEALTH_CHECK_BUDGET_MS = 3000;
/** The connection timeout of a `health.services` entry without its own `timeoutMs`. */
export const HEALTH_SERVICE_TIMEOUT_MS = 1000;

export interface HealthService {
  name: string;
  host: string;
  port: number;
  timeoutMs?: number;
}

export const DEFAULT_CONFIG: SvcConfig = {
  server: {
    host: '127.0.0.1',
    port: 6916,
    bodyLimit: 1024 * 1024,
    maxUrlLength: 8 * 1024,
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    keepAliveTimeoutMs: 5_000,
    shutdownGraceMs: 10_000,
  },
  endpoints: { docs: 'svc/docs', health: 'svc/health', dashboard: 'svc/dashboard', metrics: 'svc/metrics', guarded: false },
  // As SPEC §6 shows it: an `/admin` area answers loopback clients only until svc.json says otherwise.
  ip: { whitelist: [], blacklist: [], trustProxy: [], routes: { '/admin': { whitelist: ['127.0.0.1', '::1'], blacklist: [] } } },
  database: { driver: 'sqlite', path: 'shoebox/database.sqlite' },
  cache: { ttl: 60 },
  health: { services: [] },
  logs: { maxBytes: 5 * 1024 * 1024, keep: 5 },
};
