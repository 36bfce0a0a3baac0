// What node's HTTP parser refuses before there is a request to hand the pipeline (a
// malformed request line or header field, headers over node's size limit, bad framing
// such as Content-Length with Transfer-Encoding, headersTimeoutMs or requestTimeoutMs run
// out) reaches the server's 'clientError' listener with the bare socket. Node's own
// listener writes a status line with no body and logs nothing; svc answers as it answers
// any error (SPEC §4, §7): problem+json, and one line in svc.log. An address the global
// IP rules deny gets their 403 instead, as it would for a request that parses (SPEC §5).
import { maxHeaderSize, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { PROBLEM_JSON, problemJson, statusTitle } from '../errors/problem.ts';
import { formatLogLine, type LogWriter } from '../shoebox/log.ts';
import { requestId } from './request-id.ts';

/** Node's connection state on the socket, which its own listener reads too. */
interface HttpSocket extends Socket {
  /** The response assigned to the connection, until it finishes. */
  _httpMessage?: ServerResponse | null;
  /** The request being parsed, until its body is read. */
  parser?: { incoming?: IncomingMessage | null } | null;
}

/**
 * The client hung up: nobody reads an answer. HPE_INVALID_EOF_STATE is a connection the
 * client closed partway through a request, most often while sending the body.
 */
const GONE = new Set(['ECONNRESET', 'EPIPE', 'HPE_INVALID_EOF_STATE']);

type Answer = { status: number; detail: string };

const ANSWERS: Record<string, Answer> = {
  HPE_HEADER_OVERFLOW: { status: 431, detail: `The request line and header fields are larger than ${maxHeaderSize} bytes.` },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, detail: 'The chunk extensions of the request body are too large.' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, detail: 'The request did not arrive in time.' },
};

/** What node passes: a parse error carries llhttp's `code` and `reason`, the bytes it failed in, and how far into them. */
type ClientError = Error & { code?: string; reason?: string; rawPacket?: unknown; bytesParsed?: number };

const DENIED = { status: 403, detail: 'Your address may not access this server.' };

/** The peer as the pipeline sees it: its address (IPv4-mapped IPv6 folded), and whether the IP rules let it in. */
export type Peer = (socket: Socket) => { address: string; allowed: boolean };

/** The answer to a target over svc.json `server.maxUrlLength`, from the pipeline or from here. */
export const targetTooLong = (maxUrlLength: number): Answer => ({ status: 414, detail: `The request target is longer than ${maxUrlLength} characters.` });

export function answerClientError(error: ClientError, connection: Duplex, log: LogWriter, maxUrlLength: number, peerOf: Peer): void {
  const socket = connection as HttpSocket;
  // Node's parser stays in its error state and reports it again for every later packet.
  if (answering.has(socket)) return;
  answering.add(socket);
  const code = error.code ?? error.name;
  const request = socket.parser?.incoming ?? null;
  const pending = request !== null && !request.complete ? request : null;
  if (GONE.has(code)) return void socket.destroy();
  socket.pause();
  afterEarlierResponses(socket, pending, () => {
    if (socket.writable && nothingAnswered(socket, pending)) {
      const peer = peerOf(socket);
      const { status, detail } = !peer.allowed
        ? DENIED
        : overlongTarget(error, code, maxUrlLength)
          ? targetTooLong(maxUrlLength)
          : (ANSWERS[code] ?? { status: 400, detail: `The request is not valid HTTP/1.1: ${error.reason ?? error.message}.` });
      const id = requestId();
      const body = problemJson(status, detail, id);
      socket.write(
        `HTTP/1.1 ${status} ${statusTitle(status)}\r\ncontent-type: ${PROBLEM_JSON}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
          `date: ${new Date().toUTCString()}\r\nconnection: close\r\n\r\n${isHead(error, pending) ? '' : body}`,
      );
      log.append(formatLogLine(String(status), `client error ${code} from ${peer.address} (request ${id})`));
    }
    socket.destroy();
  });
}

/** Connections whose refusal is decided: answered and closed, or waiting for earlier responses to go out first. */
const answering = new WeakSet<Socket>();

/**
 * Runs `then` once the responses to the requests before the refused one on this
 * connection (pipelined, still being handled) have gone out. Closing the connection
 * at once would lose them, although their handlers ran (a POST that stored its data).
 * Node assigns the connection to one response at a time, in request order, so waiting
 * for the assigned one and looking again reaches the refused request's turn.
 */
function afterEarlierResponses(socket: HttpSocket, pending: IncomingMessage | null, then: () => void): void {
  const response = socket._httpMessage ?? null;
  if (response === null || response.req === pending) return then();
  response.once('close', () => afterEarlierResponses(socket, pending, then));
}

/**
 * Whether no response has begun for the request the error belongs to, once the responses
 * before it have gone out. Node's own listener asks only whether the response assigned to
 * the socket has sent its head, so it answers twice when a response already went out whole
 * for a request whose body then turns out malformed (a 404 for `POST /nope`, then a broken
 * chunk): finished, that response is no longer assigned. A request still being read is
 * matched with its own response; a request whose head did not parse has none.
 */
function nothingAnswered(socket: HttpSocket, pending: IncomingMessage | null): boolean {
  const response = socket._httpMessage ?? null;
  if (pending !== null) return response !== null && response.req === pending && !response.headersSent;
  return response === null;
}

const SPACE = 0x20;
const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');
/** llhttp takes only the methods it knows: upper-case letters, and M-SEARCH's hyphen. */
const METHOD = /[A-Z-]{3,20}$/;

/**
 * The request line of the failed request, as far as the packet holds it: its method, and
 * the length of its target up to the next space or, cut off, the packet's end. It starts
 * the packet, or follows the last request head that ended before the point where the
 * parser failed (pipelined behind other requests), and the body of that request if any,
 * which the method's letters end. A request spread over several packets, or behind a body
 * with a blank line in it, is not to be seen (null).
 */
function packetRequestLine(error: ClientError): { method: string; targetLength: number } | null {
  const packet = error.rawPacket;
  if (!Buffer.isBuffer(packet)) return null;
  const failedAt = typeof error.bytesParsed === 'number' ? Math.min(error.bytesParsed, packet.length) : packet.length;
  // A negative offset would count from the packet's end, past where the parser failed.
  const headEnd = failedAt < HEAD_END.length ? -1 : packet.lastIndexOf(HEAD_END, failedAt - HEAD_END.length);
  const from = headEnd < 0 ? 0 : headEnd + HEAD_END.length;
  const start = packet.indexOf(SPACE, from) + 1;
  const method = start === 0 ? undefined : METHOD.exec(packet.toString('latin1', from, start - 1))?.[0];
  if (method === undefined) return null;
  const end = packet.indexOf(SPACE, start);
  return { method, targetLength: (end === -1 ? packet.length : end) - start };
}

/**
 * Whether node's 16 KiB limit on the request line and header fields was overrun by a
 * request target already longer than `maxUrlLength`: that deserves the 414 the pipeline
 * gives such a target when it fits in 16 KiB, not a 431 about header fields. A target
 * the packet does not show stays 431.
 */
function overlongTarget(error: ClientError, code: string, maxUrlLength: number): boolean {
  if (code !== 'HPE_HEADER_OVERFLOW') return false;
  const line = packetRequestLine(error);
  return line !== null && line.targetLength > maxUrlLength;
}

/**
 * A response to HEAD has no body (a client would read one as the next response). Before
 * its head is parsed, a request's method is only to be seen in the packet that failed.
 */
function isHead(error: ClientError, pending: IncomingMessage | null): boolean {
  if (pending !== null) return pending.method === 'HEAD';
  return packetRequestLine(error)?.method === 'HEAD';
}

