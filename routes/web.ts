import { redirect, type Router } from 'svc';

export default (router: Router) => {
  /** Welcome page */
  router.get('/', () => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>svc</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1f2933}a{color:#2563eb}</style></head>
<body>
<h1>svc is running</h1>
<p>This is the demo application. Try <a href="/api/users">/api/users</a>, <a href="/api/hello/you">/api/hello/you</a>,
the <a href="/svc/docs">API docs</a>, <a href="/svc/health">health</a> or the <a href="/svc/dashboard">dashboard</a>.</p>
</body>
</html>`);

  /** Nothing here: answered with 204 */
  router.get('/empty', () => null);

  /** The welcome page's old address: a permanent redirect to / */
  router.get('/home', () => redirect('/', 301));
};
