// A client that half-closes (FIN) once its requests are out still gets its answers
// (RFC 9112 §9.6), then the server closes: runtime/server/boot.ts, answerHalfClosed.
// Node's default would abort the requests still being handled at the FIN.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { handApp } from '../support/hand-app.ts';
import { startApp, type Running } from '../support/server.ts';
import { parseResponse, sendThen } from './raw-http.ts';

let server: Running;
before(async () => {
  const app = handApp([
    { method: 'GET', pattern: '/slow/{n}', handler: async (n: string) => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { n };
    } },
    { method: 'GET', pattern: '/stream', handler: () => {
      const chunks = ['one ', 'two'];
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          const chunk = chunks.shift();
          if (chunk === undefined) controller.close();
          else controller.enqueue(new TextEncoder().encode(chunk));
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/plain' } });
    } },
  ]);
  server = await startApp(app);
});
after(() => server?.close());

const get = (n: number): string => `GET /slow/${n} HTTP/1.1\r\nhost: a\r\n\r\n`;

/** The responses in `answer`, in order; parseResponse reads one each. */
function responses(answer: string): Array<{ status: number; body: unknown }> {
  const starts = [...answer.matchAll(/HTTP\/1\.1 /g)].map((match) => match.index);
  return starts.map((start, i) => {
    const response = parseResponse(Buffer.from(answer.slice(start, starts[i + 1]), 'latin1'), false);
    return { status: response.status, body: JSON.parse(response.body.toString()) };
  });
}

it('a request sent, then the sending side shut: answered, then closed', async () => {
  // sendThen resolves once the server has closed the connection.
  assert.deepEqual(responses(await sendThen(server.url, get(1), 'end', 0)), [{ status: 200, body: { n: '1' } }]);
});

it('pipelined requests, then the sending side shut: each answered in order', async () => {
  const answer = await sendThen(server.url, get(1) + get(2) + get(3), 'end', 0);
  assert.deepEqual(responses(answer), [1, 2, 3].map((n) => ({ status: 200, body: { n: String(n) } })));
});

it('a streamed answer to a client that shut its sending side first goes out whole', async () => {
  // A FIN while a stream flows is a client leaving (runtime/http/write-stream.ts); one before it is not.
  const answer = await sendThen(server.url, 'GET /stream HTTP/1.1\r\nhost: a\r\n\r\n', 'end', 0);
  assert.equal(parseResponse(Buffer.from(answer, 'latin1'), false).body.toString(), 'one two');
});

it('the sending side shut with no request: the server closes without a word', async () => {
  assert.equal(await sendThen(server.url, '', 'end', 0), '');
});
