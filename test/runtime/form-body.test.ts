// ctx.form(): URL-encoded and multipart bodies, uploads included; anything else is refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Context } from '../../runtime/context.ts';
import { MAX_FIELDS, MAX_FILES } from '../../runtime/http/multipart.ts';
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
        {
          method: 'POST',
          pattern: '/echo',
          handler: async function (this: Context) {
            const entries: Array<[string, unknown]> = [];
            for (const [name, value] of await this.form()) {
              entries.push([name, typeof value === 'string' ? value : { name: value.name, type: value.type, text: await value.text() }]);
            }
            return entries;
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

  // Bodies written by hand, as clients other than browsers and curl write them.
  const BOUNDARY = 'b0undary';
  const part = (disposition: string, body: string, type?: string): string =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; ${disposition}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n${body}\r\n`;
  const END = `--${BOUNDARY}--`;
  const echo = async (body: string, contentType = `multipart/form-data; boundary=${BOUNDARY}`) => {
    const res = await raw(server.url, '/echo', { method: 'POST', body, headers: { 'content-type': contentType } });
    return { status: res.status, json: JSON.parse(res.body) };
  };

  it('skips a preamble before the first boundary', async () => {
    const body = `This is a message in MIME format.\r\n${part('name="a"', 'one')}${part('name="b"', 'two')}${END}`;
    assert.deepEqual(await echo(body), { status: 200, json: [['a', 'one'], ['b', 'two']] });
  });

  it('skips an epilogue after the closing boundary', async () => {
    const body = `${part('name="a"', 'one')}${END}\r\nThis is the epilogue.\r\n`;
    assert.deepEqual(await echo(body), { status: 200, json: [['a', 'one']] });
  });

  it("reads a file name given as filename* (RFC 6266), in UTF-8, and one sent as raw UTF-8 bytes", async () => {
    const body = part(`name="doc"; filename*=UTF-8''na%C3%AFve.txt`, 'hi', 'text/plain') + part('name="doc"; filename="café.txt"', 'ho', 'text/plain') + END;
    assert.deepEqual(await echo(body), {
      status: 200,
      json: [
        ['doc', { name: 'naïve.txt', type: 'text/plain', text: 'hi' }],
        ['doc', { name: 'café.txt', type: 'text/plain', text: 'ho' }],
      ],
    });
  });

  it('reads non-ASCII fields, empty files and several files under one name', async () => {
    const form = new FormData();
    form.set('name', 'Zoë 東京 🎉');
    form.append('photo', new File(['one'], 'a.png', { type: 'image/png' }));
    form.append('photo', new File([], 'empty.txt', { type: 'text/plain' }));
    form.append('photo', new File(['three'], 'c.jpg', { type: 'image/jpeg' }));
    const res = await fetch(`${server.url}/echo`, { method: 'POST', body: form });
    assert.deepEqual(await res.json(), [
      ['name', 'Zoë 東京 🎉'],
      ['photo', { name: 'a.png', type: 'image/png', text: 'one' }],
      ['photo', { name: 'empty.txt', type: 'text/plain', text: '' }],
      ['photo', { name: 'c.jpg', type: 'image/jpeg', text: 'three' }],
    ]);
  });

  it("reads a browser's empty file input as an empty File with no name", async () => {
    const body = part('name="avatar"; filename=""', '', 'application/octet-stream') + END;
    assert.deepEqual(await echo(body), { status: 200, json: [['avatar', { name: '', type: 'application/octet-stream', text: '' }]] });
  });

  it('answers 400, saying why, for a body cut short, a missing boundary, malformed part headers or a nameless part', async () => {
    const cases: Array<[string, string | undefined, RegExp]> = [
      [part('name="a"', 'one'), undefined, /ends before its closing boundary/],
      [part('name="a"', 'one') + END, 'multipart/form-data', /names no boundary/],
      [`--${BOUNDARY}\r\nContent-Disposition form-data\r\n\r\none\r\n${END}`, undefined, /part's headers are malformed/],
      [part('filename="x.txt"', 'one', 'text/plain') + END, undefined, /part has no name/],
    ];
    for (const [body, contentType, detail] of cases) {
      const { status, json } = await echo(body, contentType);
      assert.equal(status, 400, body);
      assert.match(json.detail, /^The request body is not a valid multipart\/form-data form: /);
      assert.match(json.detail, detail);
    }
  });

  it(`answers 413 for a form of more than ${MAX_FIELDS} fields or ${MAX_FILES} files`, async () => {
    const parts = (n: number, disposition: (i: number) => string) => Array.from({ length: n }, (_, i) => part(disposition(i), 'v')).join('') + END;
    const field = (i: number) => `name="f${i}"`;
    const file = (i: number) => `name="f"; filename="${i}.txt"`;
    for (const [max, disposition, what] of [[MAX_FIELDS, field, 'fields'], [MAX_FILES, file, 'files']] as const) {
      const full = await echo(parts(max, disposition));
      assert.equal(full.status, 200);
      assert.equal(full.json.length, max);
      const over = await echo(parts(max + 1, disposition));
      assert.equal(over.status, 413);
      assert.equal(over.json.detail, `The form has more than ${max} ${what}.`);
    }
  });
});
