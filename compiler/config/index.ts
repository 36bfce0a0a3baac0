// svc.json → SvcConfig with defaults. (First version: parse and merge; the IP/config
// work adds full validation as SVC007.)
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { error, type Diagnostic } from '../diagnostics.ts';
import { DEFAULT_CONFIG, type SvcConfig } from '../../runtime/config.ts';

export interface LoadedConfig {
  config: SvcConfig | null;
  diagnostics: Diagnostic[];
}

export async function loadConfig(root: string): Promise<LoadedConfig> {
  let text: string;
  try {
    text = await readFile(join(root, 'svc.json'), 'utf8');
  } catch {
    return { config: structuredClone(DEFAULT_CONFIG), diagnostics: [] };
  }
  try {
    const raw = JSON.parse(text) as Partial<SvcConfig>;
    const d = structuredClone(DEFAULT_CONFIG);
    return {
      config: {
        server: { ...d.server, ...raw.server },
        endpoints: { ...d.endpoints, ...raw.endpoints },
        ip: { ...d.ip, ...raw.ip },
        database: { ...d.database, ...raw.database },
        cache: { ...d.cache, ...raw.cache },
        health: { ...d.health, ...raw.health },
        logs: { ...d.logs, ...raw.logs },
      },
      diagnostics: [],
    };
  } catch (e) {
    return { config: null, diagnostics: [error('SVC007', `svc.json is not valid JSON: ${(e as Error).message}`, { file: 'svc.json', line: 1, col: 1 })] };
  }
}
