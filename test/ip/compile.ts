// svc.json `ip` → the runtime filter, through the real validator and emitter.
import { parseConfig } from '../../compiler/config/index.ts';
import { formatDiagnostics, hasErrors } from '../../compiler/diagnostics.ts';
import { emitIpTables } from '../../compiler/emit/ip-tables.ts';
import type { IpTables } from '../../runtime/ip/index.ts';

export function compileIp(ip: unknown): IpTables {
  const loaded = parseConfig(JSON.stringify({ ip }));
  if (!loaded.config || hasErrors(loaded.diagnostics)) throw new Error(formatDiagnostics(loaded.diagnostics));
  return JSON.parse(emitIpTables(loaded.config)) as IpTables;
}
