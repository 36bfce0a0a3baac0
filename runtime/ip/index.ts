// The runtime side of IP rules: build both functions once at start-up from
// `.svc/ip-tables.json`, then per request:
//   const ip = clientAddress(req);   if (!allowed(ip, canonicalPath)) → 403
import { AddressCache } from './address-cache.ts';
import { createClientAddress, type ClientAddress } from './client-address.ts';
import { createIpFilter, type IpFilter } from './filter.ts';
import type { IpTables } from './tables.ts';

export { createIpFilter, type IpFilter } from './filter.ts';
export { createClientAddress, type ClientAddress } from './client-address.ts';
export type { IpTables, IpLevel, IpList } from './tables.ts';

const NO_RULES: IpTables = {
  global: { whitelist: { v4: [], v6: [] }, blacklist: { v4: [], v6: [] } },
  routes: {},
  trustProxy: { v4: [], v6: [] },
};

/** The request pipeline's two IP hooks (`ipFilter`, `clientAddress` of `createHandler`) for a build's tables; none → allow all, socket peer. */
export function ipHandlerOptions(tables: IpTables | null | undefined): { ipFilter: IpFilter; clientAddress: ClientAddress } {
  const compiled = tables ?? NO_RULES;
  const addresses = new AddressCache();
  return { ipFilter: createIpFilter(compiled, addresses), clientAddress: createClientAddress(compiled, addresses) };
}
