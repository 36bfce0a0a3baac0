import type { Router } from 'svc';

export default (router: Router) => {
  /** Crawlers may index the pages but not the API */
  router.get('/robots.txt', () => new Response('User-agent: *\nDisallow: /api/\n', { headers: { 'content-type': 'text/plain; charset=utf-8' } }));
};
