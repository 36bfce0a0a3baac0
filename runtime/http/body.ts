// Request bodies, read in full before the handler runs and capped by
// `server.bodyLimit` (SPEC §4: over the limit → 413).
import type { IncomingMessage } from 'node:http';
import { HttpError } from '../errors/http-error.ts';

export const EMPTY_BODY: Buffer = Buffer.alloc(0);

/** Whether the request carries a body at all; most GETs do not, and skip reading. */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * A transfer coding other than `chunked` (RFC 9112 §6.1: 501), or null. Node undoes only
 * `chunked`, the last coding, and would hand over bytes still coded by the others
 * (`gzip, chunked`).
 */
export function unknownCoding(req: IncomingMessage): string | null {
  const coding = req.headers['transfer-encoding'];
  return coding === undefined || coding === 'chunked' || coding.toLowerCase() === 'chunked' ? null : coding;
}

/** A declared Content-Length over the limit is refused before a byte is read. */
export function declaredTooLarge(req: IncomingMessage, limit: number): boolean {
  const length = req.headers['content-length'];
  return length !== undefined && Number(length) > limit;
}

/**
 * The body stopped arriving: the client went away, or node gave up on the request (a
 * malformed chunk, requestTimeoutMs) and answered it on the socket itself. Either way
 * there is no one to answer, and nothing for the application's log or metrics.
 */
export class ClientGone extends Error {}

/** The 413: the body is left unread, so the connection closes after it (and lingers, as every such close does). */
export function tooLarge(limit: number): HttpError {
  return new HttpError(413, `The request body is larger than the ${limit}-byte limit.`, { connection: 'close' });
}

/** Reads the whole body, counting bytes as they arrive (chunked bodies declare no length). */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (): void => {
      req.off('data', onData).off('end', onEnd).off('error', gone).off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        done();
        req.pause(); // the rest is discarded once the 413 is out, not collected
        reject(tooLarge(limit));
      } else chunks.push(chunk);
    };
    const onEnd = (): void => {
      done();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    // A request stream fails only when its connection does: node destroys it with
    // `Error('aborted')` (ECONNRESET) before 'close', whatever ended the connection.
    const gone = (cause?: Error): void => {
      done();
      reject(new ClientGone('The connection closed while the body was being sent.', { cause }));
    };
    const onClose = (): void => {
      if (!req.complete) gone();
    };
    req.on('data', onData).on('end', onEnd).on('error', gone).on('close', onClose);
  });
}
