// A cluster primary that is not svc's, as PM2's cluster mode runs one: it forks
// `svc serve` workers in the working directory and speaks none of svc's messages.
// Usage: node foreign-primary.mjs <bin/svc.js> <workers> [svc serve arguments…]
// Prints `ready <port>` once every worker listens; SIGTERM stops the workers, then itself.
import cluster from 'node:cluster';

const [bin, count, ...args] = process.argv.slice(2);
cluster.setupPrimary({ exec: bin, args: ['serve', ...args], silent: false });
const workers = Array.from({ length: Number(count) }, () => cluster.fork());
let listening = 0;
cluster.on('listening', (worker, address) => {
  if (++listening === workers.length) console.log(`ready ${address.port}`);
});
process.on('SIGTERM', async () => {
  const codes = await Promise.all(workers.map((worker) => new Promise((resolve) => {
    worker.once('exit', (code) => resolve(code));
    worker.process.kill('SIGTERM');
  })));
  console.log(`exit codes ${codes.join(' ')}`);
  process.exit(0);
});
