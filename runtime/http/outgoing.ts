// A response before it is written: what handlers' return values become and what
// middleware sees and may change.
export type HeaderValue = string | number | readonly string[];

export interface Outgoing {
  status: number;
  headers: Record<string, HeaderValue>;
  body: string | Uint8Array | null;
}

export type Next = () => Promise<Outgoing>;
