// `svc build`: discover → analyse → check → emit → bundle. Each phase takes plain data
// and returns plain data; only this file knows the order.
import { resolve } from 'node:path';
import { discover } from './discover/index.ts';
import { loadConfig } from './config/index.ts';
import { builtinRoutes } from './config/builtin-routes.ts';
import { analyse } from './analyse/index.ts';
import { check } from './check/index.ts';
import { emitDocument, emitSources, emitStartData, restoreOutputs, writeOutputs } from './emit/index.ts';
import { bundle } from './bundle/index.ts';
import { projectInputs } from './build-inputs.ts';
import { copySwaggerAssets } from './emit/swagger-assets.ts';
import { hasErrors, type Diagnostic } from './diagnostics.ts';
import type { RouteTable } from './ir.ts';
import { DEFAULT_CONFIG } from '../runtime/config.ts';

export interface BuildResult {
  ok: boolean;
  diagnostics: Diagnostic[];
  table: RouteTable;
  /** Milliseconds each phase took, in the order they ran (`svc tread` prints them). */
  timings: Array<[phase: string, ms: number]>;
  /**
   * The project's own files the build read, absolute: route files, what they import
   * (type-only imports too), what only the bundle reads. A failed build lists what it
   * got to (`svc tread` watches them).
   */
  inputs: string[];
}

export interface BuildOptions {
  /** `false`: analyse and check only, write nothing (for `svc route list` and tests). */
  write?: boolean;
  /** Keep each route file's analysis and the bundler warm between builds of this root (`svc tread`). */
  incremental?: boolean;
  /**
   * Runs once the bundle is written, before the API document is: `svc tread` serves the
   * new build meanwhile. `false` (the build did not start) leaves the document of the
   * build still served.
   */
  onBundled?: () => Promise<boolean>;
}

/** Roots whose Swagger UI files this process copied: they do not change while `svc tread` runs. */
const assetsCopied = new Set<string>();

export async function build(projectRoot: string, options: BuildOptions = {}): Promise<BuildResult> {
  // Absolute, as the paths the file watcher and the warm project report are.
  const root = resolve(projectRoot);
  const timings: BuildResult['timings'] = [];
  let lap = performance.now();
  const timed = (phase: string): void => {
    const now = performance.now();
    timings.push([phase, now - lap]);
    lap = now;
  };
  const found = await discover(root);
  const config = await loadConfig(root);
  // An unreadable svc.json still lets the route files be checked: every problem in one run.
  const analysed = analyse(root, found.routeFiles, config.config ?? structuredClone(DEFAULT_CONFIG), options.incremental);
  if (config.config) analysed.table.routes.push(...builtinRoutes(config.config, analysed.table.routes.length, config.locations));
  const diagnostics = [...found.diagnostics, ...config.diagnostics, ...analysed.diagnostics, ...check(analysed.table, analysed.unresolved)];
  timed('analyse');
  let inputs = projectInputs(root, analysed.read);
  if (!config.config || hasErrors(diagnostics)) return { ok: false, diagnostics, table: analysed.table, timings, inputs };
  if (options.write !== false) {
    const { table } = analysed;
    const replaced = await writeOutputs(root, emitSources(table));
    timed('emit');
    const bundling = Promise.all([bundle(root, options.incremental), copyAssets(root, options.incremental)]);
    // esbuild works in a process of its own meanwhile.
    const startData = emitStartData(table);
    const [[{ problems, inputs: bundled }], document] = await Promise.all([bundling, options.onBundled ? null : emitDocument(root, table)]);
    if (problems.length > 0) {
      await restoreOutputs(root, replaced);
      return { ok: false, diagnostics: [...diagnostics, ...problems], table, timings, inputs };
    }
    inputs = projectInputs(root, [...inputs, ...bundled]);
    await writeOutputs(root, { ...startData, ...document });
    if (options.onBundled) {
      timed('bundle');
      const started = await options.onBundled();
      timed('load');
      if (started) {
        await writeOutputs(root, await emitDocument(root, table));
        timed('document');
      }
    } else {
      timed('bundle and document');
    }
  }
  return { ok: true, diagnostics, table: analysed.table, timings, inputs };
}

async function copyAssets(root: string, incremental = false): Promise<void> {
  if (incremental && assetsCopied.has(root)) return;
  await copySwaggerAssets(root);
  assetsCopied.add(root);
}
