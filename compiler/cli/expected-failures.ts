// Failures of the build, the configuration or the environment, whose message says all a
// user needs: `svc serve` and `svc tread` print them in one line, without a stack trace.
// (compiler/cli/tread-server.mjs, plain JavaScript in a process of its own, keeps its copy.)
export const EXPECTED_FAILURES: ReadonlySet<string> = new Set(['GuardTokenError', 'StaleBuildError', 'ListenError', 'ErrorPageError']);
