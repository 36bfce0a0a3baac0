#!/usr/bin/env node
// The CLI is TypeScript; tsx loads it so that no build step stands between a
// clone and `npx svc`. Serving itself runs the esbuild bundle in .svc/.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../compiler/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
