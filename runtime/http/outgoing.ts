// A response before it is written: what handlers' return values become and what
// middleware sees and may change.
export type HeaderValue = string | number | readonly string[];

export interface Outgoing {
  status: number;
  headers: Record<string, HeaderValue>;
  /** A stream only for a web `Response` whose body was still arriving (runtime/http/response-body.ts). */
  body: string | Uint8Array | ReadableStream<Uint8Array> | null;
}

export type Next = () => Promise<Outgoing>;

/** Statuses whose responses never have a body (RFC 9110 §6.4.1, §15.3.6). */
export const takesNoBody = (status: number): boolean => status === 204 || status === 205 || status === 304 || status < 200;
