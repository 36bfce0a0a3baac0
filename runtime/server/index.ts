// The serving side of svc, imported by the generated `.svc/entry.ts` as `svc/server`.
export { applyTimeouts, boot, type BootOptions } from './boot.ts';
export { createHandler, type AppHandler, type ClientAddress, type HandlerOptions, type IpFilter } from './handler.ts';
export { builtinEndpoints, type BuiltinEndpoint, type BuiltinFactory, type BuiltinName, type BuiltinSetup } from './builtins.ts';
export { StaleBuildError } from './stale-build-error.ts';
export { readBuildJson } from './build-output.ts';
export { drain, trackConnections } from './shutdown.ts';
export { logUncaughtException, logUnhandledRejection } from '../shoebox/log.ts';
export { useDocsMount } from '../shoebox/assets.ts';
export type { CompiledApp } from './app.ts';
export type { Manifest } from '../manifest.ts';
