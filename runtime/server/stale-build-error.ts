// The build in .svc/ does not fit the sources it was made from, or was damaged: said in
// one line by `svc serve` and `svc tread` (compiler/cli/expected-failures.ts).
export class StaleBuildError extends Error {
  constructor(problem: string) {
    super(`${problem}. The build in .svc/ does not match the sources: run \`svc build\`.`);
    this.name = 'StaleBuildError';
  }
}
