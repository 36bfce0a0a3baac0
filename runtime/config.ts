// svc.json after validation, with every default filled in (SPEC §6). The compiler
// validates it; the runtime reads it from the manifest.
export interface IpRules {
  whitelist: string[];
  blacklist: string[];
}

export interface SvcConfig {
  server: { host: string; port: number; bodyLimit: number };
  endpoints: { docs: string; health: string; dashboard: string; metrics: string; guarded: boolean };
  ip: IpRules & { trustProxy: string[]; routes: Record<string, IpRules> };
  database: { driver: 'sqlite'; path: string };
  cache: { ttl: number };
  health: { services: HealthService[] };
  logs: { maxBytes: number; keep: number };
}

export interface HealthService {
  name: string;
  host: string;
  port: number;
  timeoutMs?: number;
}

export const DEFAULT_CONFIG: SvcConfig = {
  server: { host: '127.0.0.1', port: 6916, bodyLimit: 1024 * 1024 },
  endpoints: { docs: 'svc/docs', health: 'svc/health', dashboard: 'svc/dashboard', metrics: 'svc/metrics', guarded: false },
  ip: { whitelist: [], blacklist: [], trustProxy: [], routes: {} },
  database: { driver: 'sqlite', path: 'shoebox/database.sqlite' },
  cache: { ttl: 60 },
  health: { services: [] },
  logs: { maxBytes: 5 * 1024 * 1024, keep: 5 },
};
