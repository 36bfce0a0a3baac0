// Value checks that a JSON Schema pattern cannot express exactly.
import { INVALID, parseIp } from '../../runtime/ip/address.ts';
import { formatAddress, parseIpEntry } from '../ip-entry.ts';

export function checkIpEntry(entry: string): string | null {
  const range = parseIpEntry(entry);
  return typeof range === 'string' ? range : null;
}

/** `10.0.0.5/24` works (as 10.0.0.0/24) but usually means a typo in the address or the prefix. */
export function warnIpEntry(entry: string): string | null {
  const range = parseIpEntry(entry);
  if (typeof range === 'string' || !range.hostBits) return null;
  return `"${entry}" has address bits set after the prefix length; it covers ${formatAddress(range.family, range.start)} to ${formatAddress(range.family, range.end)}`;
}

/**
 * `/admin/*` or `/admin*` is a wildcard in Laravel's `Request::is()` and most proxies, but
 * a key is a path: its `*` matches only a `*` in the URL, so the rules would protect
 * nothing the writer meant. `*` stays allowed, as a route may have it literally.
 */
export function warnRouteKey(key: string): string | null {
  if (!key.includes('*')) return null;
  const meant = key.replace(/\/?\*.*$/, '') || '/';
  return `"*" is no wildcard: it matches only a "*" in the URL. A key covers its path and every path below it: "${meant}" is probably what you mean`;
}

/** Labels of letters, digits and inner hyphens; a trailing dot (a fully qualified name, `db.example.com.`) is allowed. */
const HOST_NAME = /^(?=.{1,253}\.?$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

/** An IP address, or a DNS name that cannot be mistaken for a malformed one (`1.2.3`). */
export function checkHost(host: string): string | null {
  if (host.includes(':') || /^[0-9.]+$/.test(host)) {
    return parseIp(host, new Uint32Array(4)) === INVALID ? `"${host}" is not an IPv4 or IPv6 address` : null;
  }
  return HOST_NAME.test(host) ? null : `"${host}" is not a valid host name`;
}

/**
 * SQLite's `:memory:` names no file: each process (`cobble run`, then the server) would
 * get an empty database of its own, lost when it exits. svc would take it for a file name.
 */
export function checkDatabasePath(path: string): string | null {
  if (path !== ':memory:') return null;
  return 'an in-memory database would start empty in every process (cobble run\'s, then the server\'s) and be lost at exit; name a file, e.g. "shoebox/database.sqlite"';
}
