// Runs every test/**/*.test.ts with node's own test runner; Node 20 cannot
// glob TypeScript test files by itself.
import { spawnSync } from 'node:child_process';
import fg from 'fast-glob';

const patterns = process.argv.slice(2);
const files = await fg(patterns.length ? patterns : ['test/**/*.test.ts'], { ignore: ['test/.tmp/**', 'test/fixtures/**'] });
files.sort();
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
