// Stands in for the copy of runtime/routing/canonical-path.ts that `svc build` writes
// beside a generated dispatcher, so that the snapshot beside this file typechecks.
export { canonicalPath } from '../../../runtime/routing/canonical-path.ts';
