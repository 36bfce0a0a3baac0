// Issue 8: the request limits' defaults and their svc.json keys.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseConfig } from '../../compiler/config/index.ts';
import { formatDiagnostics } from '../../compiler/diagnostics.ts';
import { DEFAULT_CONFIG } from '../../runtime/config.ts';
import { handApp } from '../support/hand-app.ts';
import { raw, startApp } from '../support/server.ts';

describe('server.maxUrlLength', () => {
  it('defaults to 8 KiB: a longer request target gets 414 problem+json, and a log line', async () => {
    assert.equal(DEFAULT_CONFIG.server.maxUrlLength, 8192);
    const server = await startApp(handApp([{ method: 'GET', pattern: '/files/{name}', handler: (name: string) => name.length }]));
    try {
      const target = (length: number): string => `/files/${'n'.repeat(length - '/files/'.length)}`;
      const fits = await raw(server.url, target(8192));
      assert.equal(fits.status, 200);
      assert.equal(fits.body, String(8192 - '/files/'.length));
      const over = await raw(server.url, target(8193));
      assert.equal(over.status, 414);
      assert.equal(over.headers['content-type'], 'application/problem+json');
      assert.equal((JSON.parse(over.body) as { detail: string }).detail, 'The request target is longer than 8192 characters.');
      const html = await raw(server.url, target(8193), { headers: { accept: 'text/html' } });
      assert.equal(html.status, 414);
      assert.match(html.headers['content-type'] ?? '', /^text\/html/);
      const logged = (await server.logLines()).filter((line) => line.includes('] [414] GET /files/'));
      assert.equal(logged.length, 2);
      assert.match(logged[0]!, /\[414\] GET \/files\/n{193}… \(8193 characters\) 414 from /, 'the line shows how the target starts, not all of it');
    } finally {
      await server.close();
    }
  });
});

describe('svc.json server limits', () => {
  it('fills in the defaults', () => {
    const { config } = parseConfig('{}');
    assert.deepEqual(config?.server, DEFAULT_CONFIG.server);
  });

  it('rejects values that are not positive whole numbers with SVC007', () => {
    const { diagnostics } = parseConfig('{ "server": { "maxUrlLength": 0, "headersTimeoutMs": "10", "requestTimeoutMs": 1.5, "keepAliveTimeoutMs": -1, "shutdownGraceMs": -5 } }');
    const text = formatDiagnostics(diagnostics);
    for (const key of ['maxUrlLength', 'headersTimeoutMs', 'requestTimeoutMs', 'keepAliveTimeoutMs', 'shutdownGraceMs']) {
      assert.match(text, new RegExp(`error SVC007: server\\.${key}: `), key);
    }
  });
});
