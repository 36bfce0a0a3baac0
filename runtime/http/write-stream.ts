// A streamed body (runtime/http/response-body.ts) on the wire: chunked, as it arrives,
// or with the Content-Length its handler declared, which it must then meet exactly.
// The status and headers go out with the first chunk, so a stream that fails before it
// is still answered with an error response; one that fails later cuts the connection,
// and the client sees an incomplete answer rather than a complete wrong one.
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { HeaderValue } from './outgoing.ts';

export interface Streaming {
  /** Resolves once the status is sent; rejects, with nothing sent, when the stream fails first. */
  sent: Promise<void>;
  /** Rejects when the stream fails after the status was sent. */
  done: Promise<void>;
}

export function writeStream(res: ServerResponse, status: number, fields: Array<string | HeaderValue>, body: ReadableStream<Uint8Array>, bodiless: boolean): Streaming {
  if (bodiless || res.req.method === 'HEAD') {
    res.writeHead(status, fields as string[]).end();
    return { sent: Promise.resolve(), done: body.cancel().catch(() => undefined) };
  }
  const reader = body.getReader();
  const first = reader.read().then(({ done, value }) => {
    res.writeHead(status, fields as string[]);
    if (done) res.end();
    else res.write(value);
    reader.releaseLock();
    return done;
  });
  return { sent: first.then(() => undefined), done: first.then((ended) => (ended ? undefined : pipeRest(res, body)), () => undefined) };
}

/**
 * The rest of the stream. A client's FIN while it flows means the client left (a browser
 * closing an event stream): the stream is cancelled then, as Node's default would, rather
 * than run on until a write fails. A FIN that came before the answer began is a
 * half-closed client that still wants it (runtime/server/boot.ts, answerHalfClosed).
 */
async function pipeRest(res: ServerResponse, body: ReadableStream<Uint8Array>): Promise<void> {
  const { socket } = res;
  const leave = (): void => void res.destroy();
  socket?.once('end', leave);
  try {
    await pipeline(Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>), res);
  } catch (error) {
    // The client went away: the stream was cancelled, nothing to report.
    if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw error;
  } finally {
    socket?.off('end', leave);
  }
}

/**
 * `body`, failing once it yields more or fewer than `length` bytes: sent on, a longer one
 * would run into the next response on the connection, a shorter one leave the client
 * waiting for the rest. Failing before its first chunk, it is answered with an error
 * response; later, the connection is cut.
 */
export function exactly(length: number, body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  let seen = 0;
  const mismatch = (gave: string): Error => new Error(`A response body declared Content-Length ${length} and gave ${gave} bytes.`);
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > length) controller.error(mismatch('more'));
        else controller.enqueue(chunk);
      },
      flush(controller) {
        if (seen !== length) controller.error(mismatch(`only ${seen}`));
      },
    }),
  );
}
