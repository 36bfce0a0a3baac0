import type { Server } from 'node:http';
import { checkHost } from '../config/checks.ts';
import { UsageError } from './usage-error.ts';

export interface ListenOptions {
  host?: string;
  port?: string | number;
}

/** `--host`/`--port` checked before anything starts; defaults come from svc.json. */
export function listenOptions(options: ListenOptions): { host?: string; port?: number } {
  const result: { host?: string; port?: number } = {};
  if (options.host !== undefined) {
    if (typeof options.host !== 'string' || options.host === '') throw new UsageError('--host needs an address, e.g. --host 0.0.0.0');
    // The check svc.json's server.host gets (SVC007): `999.1.1.1` or `not a host!` is a typo, not a lookup to try.
    const problem = checkHost(options.host);
    if (problem) throw new UsageError(`--host: ${problem}; give an IP address or a host name, e.g. --host 0.0.0.0`);
    result.host = options.host;
  }
  if (options.port !== undefined) {
    const port = Number(options.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a whole number from 0 to 65535, got "${options.port}"`);
    result.port = port;
  }
  return result;
}

/** `http://127.0.0.1:6916`, `http://[::]:6916`: where a listening server can be reached. */
export function serverUrl(server: Server): string {
  const address = server.address();
  if (address === null || typeof address === 'string') return String(address);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
