// ctx.form(): URL-encoded and multipart bodies, uploads included; anything else is refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Context } from '../../runtime/context.ts';
import { handApp } from '../support/hand-app.ts';
import { raw, startApp, type Running } from '../support/server.ts';

describe('ctx.form()', () => {
  let server: Running;
  before(async () => {
    server = await startApp(
      handApp([
        {
          method: 'POST',
          pattern: '/signup',
          handler: async function (this: Context) {
            const form = await this.form();
            const avatar = form.get('avatar');
            return {
              name: form.get('name'),
              tags: form.getAll('tag'),
              avatar: avatar instanceof File ? { name: avatar.name, type: avatar.type, text: await avatar.text() } : null,
            };
          },
        },
      ]),
    );
  });
  after(() => server.close());

  const post = (body: URLSearchParams | FormData) => fetch(`${server.url}/signup`, { method: 'POST', body });

  it('reads a URL-encoded form', async () => {
    const res = await post(new URLSearchParams([['name', 'Zoë & co'], ['tag', 'a'], ['tag', 'b']]));
    assert.deepEqual(await res.json(), { name: 'Zoë & co', tags: ['a', 'b'], avatar: null });
  });

  it('reads a multipart form with its files', async () => {
    const form = new FormData();
    form.set('name', 'ann');
    form.set('avatar', new File(['picture bytes'], 'me.png', { type: 'image/png' }));
    const res = await post(form);
    assert.deepEqual(await res.json(), { name: 'ann', tags: [], avatar: { name: 'me.png', type: 'image/png', text: 'picture bytes' } });
  });

  it('answers 415 for a body of another type, 400 for a multipart body that does not parse', async () => {
    const json = await raw(server.url, '/signup', { method: 'POST', body: '{"name":"x"}', headers: { 'content-type': 'application/json' } });
    assert.equal(json.status, 415);
    assert.match(JSON.parse(json.body).detail, /not a form: its Content-Type is "application\/json"/);
    const broken = await raw(server.url, '/signup', { method: 'POST', body: 'no boundary here', headers: { 'content-type': 'multipart/form-data; boundary=xyz' } });
    assert.equal(broken.status, 400);
    assert.match(JSON.parse(broken.body).detail, /not a valid multipart\/form-data form/);
  });
});
