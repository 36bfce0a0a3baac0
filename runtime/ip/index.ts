// The runtime side of IP rules: build both functions once at start-up from
// `.svc/ip-tables.json`, then per request:
//   const ip = clientAddress(req, trustProxy);   if (!allowed(ip, canonicalPath)) → 403
import type { IncomingMessage } from 'node:http';
import { clientAddress, createProxyTrust } from './client-address.ts';
import { createIpFilter, type IpFilter } from './filter.ts';
import type { IpTables } from './tables.ts';

export { createIpFilter, type IpFilter } from './filter.ts';
export { clientAddress, createProxyTrust, type ProxyTrust } from './client-address.ts';
export type { IpTables, IpLevel, IpList } from './tables.ts';

const NO_RULES: IpTables = {
  global: { whitelist: { v4: [], v6: [] }, blacklist: { v4: [], v6: [] } },
  routes: {},
  trustProxy: { v4: [], v6: [] },
};

/** The request pipeline's two IP hooks (`ipFilter`, `clientAddress` of `createHandler`) for a build's tables; none → allow all, socket peer. */
export function ipHandlerOptions(tables: IpTables | null | undefined): { ipFilter: IpFilter; clientAddress: (req: IncomingMessage) => string } {
  const compiled = tables ?? NO_RULES;
  const trustProxy = createProxyTrust(compiled);
  return { ipFilter: createIpFilter(compiled), clientAddress: (req) => clientAddress(req, trustProxy) };
}
