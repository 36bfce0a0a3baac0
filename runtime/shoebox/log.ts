// shoebox/logs/svc.log: one line per 4xx/5xx response and per `logError()` call,
// `[ISO-8601 time] [type] message`. Requests never wait for the disk: lines are queued
// and appended by a single writer per file, so they never interleave; the file is
// rotated by size (`logs.maxBytes`, keeping `logs.keep` old files).
import { mkdirSync } from 'node:fs';
import { appendFile, lstat, open, rename, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { inspect } from 'node:util';
import { DEFAULT_CONFIG, type SvcConfig } from '../config.ts';
import { inSvcWorker, toPrimary } from './cluster-link.ts';
import { LineBuffer } from './line-buffer.ts';
import { appendNow, appendToPipe } from './pipe-append.ts';
import { ensureFolder, logFile } from './paths.ts';

export type LogLimits = SvcConfig['logs'];

const NEWLINE = 0x0a;

export class LogWriter {
  private readonly pending = new LineBuffer();
  private draining: Promise<void> | null = null;
  /** Bytes in the current file; unknown (-1) until the first write. */
  private size = -1;
  /**
   * False when svc.log is no regular file: a link (to /dev/stdout for a container's log, as
   * nginx's images have it, or to a file elsewhere), a pipe. Rotating would rename the
   * link away and leave the lines in a new file nobody reads.
   */
  private rotates = true;
  /** svc.log is a FIFO, or a link to one or to a pipe: written without blocking a thread (pipe-append.ts). */
  private pipe = false;
  /** The last write failed: its lines went to stderr. */
  private failing = false;
  /** The last rotation failed, and said so. */
  private unrotatable = false;
  /** A write failed, maybe part way (a full disk): the file may end in part of a line. */
  private torn = false;
  /** The lines of the write under way not yet known to be on disk. */
  private unwritten: Buffer | null = null;

  constructor(
    readonly file: string,
    public limits: LogLimits,
    /** In a worker of `svc serve --workers`: hands the lines to the primary, the file's one writer. */
    private readonly forward?: (lines: string[]) => Promise<void>,
  ) {}

  append(line: string): void {
    this.pending.append(line);
    this.draining ??= this.drain();
  }

  /**
   * Writes the queued lines at once, synchronously, for a process that exits now (a
   * second Ctrl-C, `process.exit()` in a handler): a worker's go to the primary.
   */
  flushNow(): void {
    // A write under way would not finish: its lines go first, at the risk of a line twice
    // (the write done, its callback not yet run) rather than a line lost.
    const lines = Buffer.concat([this.unwritten ?? Buffer.alloc(0), this.pending.empty ? Buffer.alloc(0) : this.pending.take()]);
    this.unwritten = null;
    if (lines.length === 0) return;
    try {
      if (this.forward) this.forward([lines.toString()]).catch(() => {});
      else {
        mkdirSync(dirname(this.file), { recursive: true });
        appendNow(this.file, lines);
      }
    } catch (e) {
      this.refused(lines, e as Error);
    }
  }

  /** Resolves once every line appended so far is on disk. */
  flush(): Promise<void> {
    return this.draining ?? Promise.resolve();
  }

  private async drain(): Promise<void> {
    // Wait for the rest of this turn of the event loop: the lines of every request it
    // answers go out in one write, not one file open and write for the first line alone.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (!this.pending.empty) {
      const lines = this.pending.take();
      try {
        await (this.forward ? this.forward([lines.toString()]) : this.write(lines));
        if (this.failing) process.stderr.write(`svc: ${this.file} is written again\n`);
        this.failing = false;
      } catch (e) {
        this.refused(lines, e as Error);
      } finally {
        this.unwritten = null;
      }
    }
    this.draining = null;
  }

  /**
   * A log that cannot be written must not take the server down with it, nor lose what it
   * says (a 500's cause may be nowhere else): its lines go to stderr instead, said once.
   */
  private refused(lines: Buffer, failure: Error): void {
    if (!this.failing) process.stderr.write(`svc: cannot write ${this.file}: ${failure.message}; its lines go to stderr until it can be written\n`);
    this.failing = true;
    this.torn = true;
    this.size = -1; // whatever the file is now, it is read again before the next write
    process.stderr.write(Buffer.from(lines)); // a copy: the buffer is filled again once taken
  }

  /**
   * Appends whole `lines` in as few writes as possible, rotating between two lines
   * whenever the next one would take the file past `maxBytes` (a single longer line gets
   * a file of its own), so a burst cannot grow one file far beyond the limit.
   */
  private async write(lines: Buffer): Promise<void> {
    this.unwritten = lines;
    if (this.size < 0) ({ size: this.size, rotates: this.rotates, pipe: this.pipe } = await currentFile(this.file));
    if (this.torn) this.unwritten = lines = await this.mended(lines);
    if (this.pipe) return appendToPipe(this.file, lines);
    if (!this.rotates) return this.appendChunk(lines);
    const { maxBytes } = this.limits;
    let from = 0;
    while (from < lines.length) {
      this.unwritten = lines.subarray(from);
      const room = maxBytes - this.size;
      if (lines.length - from <= room) return this.appendChunk(lines.subarray(from));
      // The lines that still fit: up to the last newline within the room left.
      let end = room > 0 ? lines.lastIndexOf(NEWLINE, from + room - 1) + 1 : 0;
      if (end <= from) {
        if (this.size > 0) {
          if (!(await this.rotatedElsewhere())) await this.rotate();
          continue;
        }
        end = lines.indexOf(NEWLINE, from) + 1 || lines.length;
      }
      await this.appendChunk(lines.subarray(from, end));
      from = end;
    }
  }

  /**
   * The part of a line a failed write left at the end of the file (its whole text went to
   * stderr) is ended, so that the next line starts a line of its own rather than being
   * glued onto it. Only a regular file is read: a link may lead to a terminal or a pipe.
   */
  private async mended(lines: Buffer): Promise<Buffer> {
    this.torn = false;
    if (!this.rotates || this.size === 0) return lines;
    const last = Buffer.alloc(1);
    try {
      const file = await open(this.file, 'r');
      try {
        const { size } = await file.stat();
        if (size === 0 || (await file.read(last, 0, 1, size - 1)).bytesRead === 0) return lines;
      } finally {
        await file.close();
      }
    } catch {
      return lines; // an unreadable file is the write's to report
    }
    return last[0] === NEWLINE ? lines : Buffer.concat([Buffer.from('\n'), lines]);
  }

  private async appendChunk(chunk: Buffer): Promise<void> {
    try {
      await appendFile(this.file, chunk);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      // Someone deleted shoebox/logs/ while serving: start a new file.
      await ensureFolder(dirname(this.file));
      await appendFile(this.file, chunk);
      this.size = 0;
      this.rotates = true; // a new, regular file
    }
    this.size += chunk.length;
  }

  /**
   * Another process serving the project (PM2's instances, a second `svc serve`) rotated
   * the file since this one last looked: rotating again would push a file of a few lines
   * into the kept ones, and the oldest out. Each process counts only what it wrote itself,
   * so with several of them a file may outgrow `maxBytes` by what the others wrote.
   */
  private async rotatedElsewhere(): Promise<boolean> {
    const { size } = await currentFile(this.file);
    if (size >= this.size) return false;
    this.size = size;
    return true;
  }

  /**
   * svc.log → svc.log.1 → svc.log.2 …, the oldest beyond `keep` overwritten. An old file
   * that cannot be moved (a folder in its place, a file made read-only) stops the
   * rotation, not the log: svc.log grows by another `maxBytes` before the next try.
   */
  private async rotate(): Promise<void> {
    const { keep } = this.limits;
    try {
      for (let n = keep - 1; n >= 1; n--) await ignoreMissing(rename(`${this.file}.${n}`, `${this.file}.${n + 1}`));
      await ignoreMissing(keep > 0 ? rename(this.file, `${this.file}.1`) : unlink(this.file));
      if (this.unrotatable) process.stderr.write(`svc: ${this.file} is rotated again\n`);
      this.unrotatable = false;
    } catch (e) {
      if (!this.unrotatable) process.stderr.write(`svc: cannot rotate ${this.file}: ${(e as Error).message}; it grows past logs.maxBytes until it can be\n`);
      this.unrotatable = true;
    }
    this.size = 0;
  }
}

/**
 * The file's size, whether it is a regular file, which alone is rotated: not a link,
 * even to a regular file (`/var/log/app/svc.log`), for rotating renames the link and
 * leaves its target behind; whoever made the link rotates the target (logrotate); and
 * whether it is, or links to, a FIFO or a pipe.
 */
async function currentFile(file: string): Promise<{ size: number; rotates: boolean; pipe: boolean }> {
  try {
    const info = await lstat(file);
    if (info.isFile()) return { size: info.size, rotates: true, pipe: false };
    const target = info.isSymbolicLink() ? await stat(file).catch(() => info) : info;
    return { size: 0, rotates: false, pipe: target.isFIFO() };
  } catch {
    await ensureFolder(dirname(file));
    return { size: 0, rotates: true, pipe: false };
  }
}

async function ignoreMissing(operation: Promise<void>): Promise<void> {
  try {
    await operation;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

const writers = new Map<string, LogWriter>();
let active: LogWriter | null = null;

/** The one writer for `root`'s svc.log. */
export function logWriter(root: string, limits: LogLimits = DEFAULT_CONFIG.logs): LogWriter {
  const file = logFile(root);
  let writer = writers.get(file);
  if (writer) writer.limits = limits; // a rebuild may change svc.json
  else writers.set(file, (writer = new LogWriter(file, limits, inSvcWorker() ? (lines) => toPrimary({ svc: 'log', lines }) : undefined)));
  return writer;
}

/** Points `logError()` at the application being served (the last one started). */
export function useLog(writer: LogWriter): void {
  active = writer;
}

export function formatLogLine(type: string, message: string, context?: unknown): string {
  const json = context === undefined ? undefined : toJson(context);
  return `${timeField()}[${typeField(type)}] ${oneLine(textOf(message))}${json === undefined ? '' : ` ${json}`}\n`;
}

/** A `]` in the type would end its field early for whoever reads the line back: it is escaped, as controls are. */
const typeField = (type: string): string => oneLine(textOf(type)).replaceAll(']', escapeControl);

/**
 * `formatLogLine` for a type and message that hold no line break already (the caller
 * passed what may hold one through `oneLine`). The pipeline logs every error response:
 * there, scanning the whole message again costs more than the rest of the line.
 */
export function formatCheckedLine(type: string, message: string): string {
  return `${timeField()}[${type}] ${message}\n`;
}

let fieldMs = NaN;
let field = '';

/** `[ISO-8601 time] `, formatted once per millisecond: under load many lines share one. */
function timeField(): string {
  const now = Date.now();
  if (now !== fieldMs) {
    fieldMs = now;
    field = `[${new Date(now).toISOString()}] `;
  }
  return field;
}

/**
 * Appends `[time] [type] message {context}` to shoebox/logs/svc.log of the application
 * being served (the working directory's before one starts). Returns at once, and never
 * throws: a value typed `any` that is no string is written as `String(value)`.
 */
export function logError(type: string, message: string, context?: unknown): void {
  (active ?? logWriter(process.cwd())).append(formatLogLine(type, message, context));
}

/** What the operator must see at once: a line in `writer`'s log, and the message on stderr. */
export function logAndWarn(writer: LogWriter, type: string, message: string): void {
  writer.append(formatLogLine(type, message));
  process.stderr.write(`svc: ${oneLine(message)}\n`);
}

/**
 * For `process.on('unhandledRejection')` in the serving process. Node's default ends the
 * process when a promise is rejected with nothing to catch it (a handler that started
 * work and never awaited it): one such request would take the whole server down. Its
 * response has gone out already; the rejection is logged, and serving goes on.
 */
export function logUnhandledRejection(reason: unknown): void {
  const message = `A promise was rejected and nothing caught it: ${described(reason)}`;
  logError('unhandledRejection', message, { error: reason });
  process.stderr.write(`svc: ${oneLine(message)}\n`);
}

/**
 * For `process.on('uncaughtExceptionMonitor')` in the serving process: an exception
 * nothing caught (thrown in a timer, an event handler) ends the process, and Node prints
 * it on stderr alone. Its line goes to the log too, which the process writes as it exits.
 */
export function logUncaughtException(error: unknown): void {
  logError('uncaughtException', `An exception nothing caught ended the process: ${described(error)}`, { error });
}

/**
 * What was thrown, in one short phrase: `TypeError: x is not a function`. Anything may be
 * thrown: a plain object is shown with its fields (`{ code: 1 }`, not `[object Object]`),
 * and one `String()` refuses (no prototype, a throwing `toString`) must not turn the
 * report of a failure into a second failure (a request never answered, a crash).
 */
export function described(thrown: unknown): string {
  try {
    if (thrown instanceof Error) return `${thrown.name}: ${thrown.message}`;
  } catch {
    // a throwing getter: shown as the object it is
  }
  const text = textOf(thrown);
  return text === '[object Object]' ? shown(thrown) : text;
}

/** An Error's message, or what `described` makes of anything else thrown. */
export function messageOf(thrown: unknown): string {
  try {
    if (thrown instanceof Error) return textOf(thrown.message);
  } catch {
    // a throwing getter: described as the object it is
  }
  return described(thrown);
}

/** `String(value)`, or, for a value that refuses it, what `util.inspect` makes of it. */
export function textOf(value: unknown): string {
  try {
    return String(value);
  } catch {
    return shown(value);
  }
}

function shown(value: unknown): string {
  try {
    return inspect(value, { depth: 2, breakLength: Infinity, customInspect: false });
  } catch {
    return `a ${typeof value} that cannot be shown as text`;
  }
}

/** Resolves once every queued line of every log is written (tests; a server flushes its own writer as it closes). */
export async function flushLogs(): Promise<void> {
  await Promise.all([...writers.values()].map((writer) => writer.flush()));
}

// A log line is read in terminals and searched with grep: line breaks would split it (and
// forge lines: a request path is the client's text), escape sequences would move a
// terminal's cursor or clear it, a NUL makes grep call the file binary. Tabs are kept.
const UNPRINTABLE = /[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]/;
const LINE_BREAK = /[\r\n\x85\u2028\u2029]/;
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** A control character as `\u001b`, which a terminal shows rather than obeys. */
export const escapeControl = (char: string): string => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * `text` on one printable line: line breaks (and the blanks around them) fold into one
 * space, other control characters are written as `\u001b`. Most text has neither, and
 * looking for one is far cheaper than the replacing.
 */
export const oneLine = (text: string): string =>
  UNPRINTABLE.test(text) ? foldLineBreaks(text).replace(CONTROLS, escapeControl) : text;

/**
 * Each run of blanks that holds a line break, as one space. Split and trimmed, in one pass:
 * a regular expression with blanks on both sides of the break (`\s*[\n…]+\s*`) retries
 * the whole run from each of its characters when no break follows, and a path or message
 * of 100,000 blanks and a control character held the event loop for seconds.
 */
function foldLineBreaks(text: string): string {
  const pieces = text.split(LINE_BREAK);
  if (pieces.length === 1) return text;
  let folded = pieces[0]!.trimEnd();
  for (let i = 1; i < pieces.length; i++) {
    const last = i === pieces.length - 1;
    const piece = last ? pieces[i]!.trimStart() : pieces[i]!.trim();
    if (piece !== '') folded += ` ${piece}`;
    else if (last) folded += ' ';
  }
  return folded;
}

/** The context as JSON; undefined when JSON has nothing to say of it (a function). */
function toJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value, contextReplacer());
  } catch (e) {
    return JSON.stringify(`${textOf(value)} (not written as JSON: ${messageOf(e)})`); // a throwing toJSON()
  }
}

/** Errors as their name, message and stack; bigints as text; a reference back to an enclosing object as "[Circular]". */
function contextReplacer(): (this: unknown, key: string, value: unknown) => unknown {
  // The objects from the root down to the one being written (JSON.stringify visits depth first).
  const enclosing: unknown[] = [];
  return function (this: unknown, _key, value) {
    if (typeof value === 'bigint') return String(value);
    if (typeof value !== 'object' || value === null) return value;
    while (enclosing.length > 0 && enclosing.at(-1) !== this) enclosing.pop();
    if (enclosing.includes(value)) return '[Circular]';
    const written = value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
    enclosing.push(written);
    return written;
  };
}
