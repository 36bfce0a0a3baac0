// Route files are every `routes/*.ts`, in code-unit order: the order the compiler numbers
// routes in and the runtime replays them in, so it must not depend on locale or disk.
import fg from 'fast-glob';

export async function discover(root: string): Promise<{ routeFiles: string[] }> {
  const found = await fg('routes/*.ts', { cwd: root, ignore: ['routes/*.d.ts'], onlyFiles: true });
  return { routeFiles: found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) };
}
