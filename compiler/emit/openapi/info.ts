// The document's `info`: the application's name and version from its package.json.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface ApiInfo {
  title: string;
  version: string;
  description?: string;
}

export const DEFAULT_INFO: ApiInfo = { title: 'svc application', version: '0.0.0' };

export async function readApiInfo(root: string): Promise<ApiInfo> {
  let pkg: { name?: unknown; version?: unknown; description?: unknown };
  try {
    pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  } catch {
    return DEFAULT_INFO;
  }
  return {
    title: typeof pkg.name === 'string' && pkg.name ? pkg.name : DEFAULT_INFO.title,
    version: typeof pkg.version === 'string' && pkg.version ? pkg.version : DEFAULT_INFO.version,
    ...(typeof pkg.description === 'string' && pkg.description && { description: pkg.description }),
  };
}
