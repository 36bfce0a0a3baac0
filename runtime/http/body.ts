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

/** A declared Content-Length over the limit is refused before a byte is read. */
export function declaredTooLarge(req: IncomingMessage, limit: number): boolean {
  const length = req.headers['content-length'];
  return length !== undefined && Number(length) > limit;
}

/** The client went away mid-body: there is no one to answer. */
export class ClientGone extends Error {}

export const tooLarge = (limit: number): HttpError =>
  new HttpError(413, `The request body is larger than the ${limit}-byte limit.`, { connection: 'close' });

/** Reads the whole body, counting bytes as they arrive (chunked bodies declare no length). */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (): void => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        done();
        req.pause(); // the 413 closes the connection; reading the rest would only waste time
        reject(tooLarge(limit));
      } else chunks.push(chunk);
    };
    const onEnd = (): void => {
      done();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (e: Error): void => {
      done();
      reject(e);
    };
    const onClose = (): void => {
      if (!req.complete) onError(new ClientGone('The client closed the connection while sending the body.'));
    };
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}
