// The client address on real connections: the server listens on `::` (IPv4 peers then show
// up IPv4-mapped), clients bind to chosen loopback addresses to play proxy or stranger.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type OutgoingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClientAddress, type ClientAddress } from '../../runtime/ip/index.ts';
import { compileIp } from './compile.ts';

let clientAddress: ClientAddress = (req) => req.socket.remoteAddress ?? '';
let server: Server;
let port: number;

before(async () => {
  server = createServer((req, res) => res.end(clientAddress(req)));
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  port = (server.address() as AddressInfo).port;
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

function ask(from: string, headers: OutgoingHttpHeaders = {}): Promise<string> {
  const host = from.includes(':') ? '::1' : '127.0.0.1';
  return new Promise((resolve, reject) => {
    const req = request({ host, port, localAddress: from, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve(body));
    });
    req.on('error', reject).end();
  });
}

const trusting = (trustProxy: string[]): ClientAddress => createClientAddress(compileIp({ trustProxy }));

test('without trusted proxies the peer is the client and X-Forwarded-For is ignored', async () => {
  clientAddress = trusting([]);
  assert.equal(await ask('127.0.0.9'), '127.0.0.9'); // folded from ::ffff:127.0.0.9
  assert.equal(await ask('127.0.0.9', { 'x-forwarded-for': '203.0.113.5' }), '127.0.0.9');
  assert.equal(await ask('::1', { 'x-forwarded-for': '203.0.113.5' }), '::1');
});

test('a header from a peer that is not a trusted proxy changes nothing', async () => {
  clientAddress = trusting(['127.0.0.2']);
  assert.equal(await ask('127.0.0.3', { 'x-forwarded-for': '127.0.0.1' }), '127.0.0.3');
});

test('behind a trusted proxy the right-most untrusted hop is the client', async () => {
  clientAddress = trusting(['127.0.0.2', '10.0.0.0/8', '::1']);
  assert.equal(await ask('127.0.0.2'), '127.0.0.2');
  assert.equal(await ask('127.0.0.2', { 'x-forwarded-for': '203.0.113.5' }), '203.0.113.5');
  // The client wrote 6.6.6.6 itself; the proxy appended the address it really saw.
  assert.equal(await ask('127.0.0.2', { 'x-forwarded-for': '6.6.6.6, 203.0.113.5' }), '203.0.113.5');
  // Through two trusted hops: a load balancer in 10/8, then the local proxy.
  assert.equal(await ask('127.0.0.2', { 'x-forwarded-for': '6.6.6.6,203.0.113.5 , 10.1.2.3' }), '203.0.113.5');
  assert.equal(await ask('::1', { 'x-forwarded-for': '2001:db8::7' }), '2001:db8::7');
});

test('repeated X-Forwarded-For headers count as one list', async () => {
  clientAddress = trusting(['127.0.0.2']);
  assert.equal(await ask('127.0.0.2', { 'x-forwarded-for': ['6.6.6.6', '203.0.113.5'] }), '203.0.113.5');
});

test('hops are folded, stripped of ports, and never trusted when they do not parse', async () => {
  clientAddress = trusting(['127.0.0.2']);
  assert.equal(await ask('127.0.0.2', { 'x-forwarded-for': '::ffff:203.0.113.5' }), '203.0.113.5');
  assert.equal(await ask('127.0.0.2', { 'x-forwarded-for': '203.0.113.5:4711' }), '203.0.113.5');
  assert.equal(await ask('127.0.0.2', { 'x-forwarded-for': '[2001:db8::1]:443' }), '2001:db8::1');
  assert.equal(await ask('127.0.0.2', { 'x-forwarded-for': '203.0.113.5, bogus' }), 'bogus');
});

test('a forwarded IPv6 address is written in its canonical form, as a socket address is', async () => {
  clientAddress = trusting(['127.0.0.2']);
  const canonical: Array<[hop: string, client: string]> = [
    ['0:0:0:0:0:0:0:1', '::1'],
    ['[0::1]:443', '::1'],
    ['2001:DB8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['0:0:0:0:0:FFFF:CB00:7105', '203.0.113.5'],
    // A zone names an interface of the proxy's host, which means nothing here.
    ['::1%lo', '::1'],
    ['[fe80::1%25eth0]:443', 'fe80::1'],
  ];
  for (const [hop, client] of canonical) assert.equal(await ask('127.0.0.2', { 'x-forwarded-for': hop }), client, hop);
});

test('when every hop is a trusted proxy the left-most one is the client', async () => {
  clientAddress = trusting(['127.0.0.2', '10.0.0.0/8']);
  assert.equal(await ask('127.0.0.2', { 'x-forwarded-for': '10.0.0.1, 10.0.0.2' }), '10.0.0.1');
});
