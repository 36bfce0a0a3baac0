// The body of a web `Response` a handler returned. One made from a string or bytes is
// there at once: it is read whole, so it goes out with a Content-Length, HEAD tells its
// length and ShoeCacheKnots can keep it. One whose chunks are still to come (server-sent
// events, a file, a proxied answer) is sent as it arrives, the way @hono/node-server
// decides it: whatever the stream yields before the next turn of the event loop is
// "there at once".

/** Chunks read ahead before a body that keeps coming without a pause is streamed anyway. */
const READ_AHEAD = 16;

const PAUSED = Symbol('paused');

type Reader = ReadableStreamDefaultReader<Uint8Array>;

export async function responseBody(stream: ReadableStream<Uint8Array>): Promise<Uint8Array | ReadableStream<Uint8Array>> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  while (chunks.length < READ_AHEAD) {
    const read = reader.read();
    const result = await Promise.race([read, nextTurn()]);
    if (result === PAUSED) return continued(chunks, reader, read);
    if (result.done) return joined(chunks);
    chunks.push(bytes(result.value));
  }
  return continued(chunks, reader, null);
}

const nextTurn = (): Promise<typeof PAUSED> => new Promise((resolve) => setImmediate(resolve, PAUSED));

/** The chunks read so far, then the rest of the reader's. */
function continued(chunks: Uint8Array[], reader: Reader, pending: ReturnType<Reader['read']> | null): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
    },
    async pull(controller) {
      const result = await (pending ?? reader.read());
      pending = null;
      if (result.done) controller.close();
      else controller.enqueue(bytes(result.value));
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** A stream given to `new Response()` may yield anything; only bytes can be sent. */
function bytes(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  throw new TypeError(`A Response body stream gave a chunk that is not a Uint8Array (${chunk === null ? 'null' : typeof chunk}); encode text with TextEncoderStream.`);
}

function joined(chunks: Uint8Array[]): Uint8Array {
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}
