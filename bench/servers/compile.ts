// The peer servers run as plain JavaScript, as svc serve runs its esbuild bundle: no
// TypeScript loader inflates anyone's start-up. Packages stay external.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

export const PEERS = ['bare', 'fastify', 'hono', 'express'] as const;
export type Peer = (typeof PEERS)[number];

const here = fileURLToPath(new URL('.', import.meta.url));

/** Writes `<outDir>/<peer>.mjs` for each peer; returns the paths by peer. */
export async function compileServers(outDir: string): Promise<Record<Peer, string>> {
  await esbuild.build({
    entryPoints: PEERS.map((peer) => join(here, `${peer}.ts`)),
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  });
  return Object.fromEntries(PEERS.map((peer) => [peer, join(outDir, `${peer}.mjs`)])) as Record<Peer, string>;
}
