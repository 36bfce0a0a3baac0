// shoebox/logs/svc.log: queued, single writer, rotated by size.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { flushLogs, formatLogLine, logError, LogWriter, logWriter, oneLine, useLog } from '../../runtime/shoebox/log.ts';
import { makeProject, removeProject } from '../support/project.ts';

describe('svc.log', () => {
  let root: string;
  before(async () => {
    root = await makeProject({});
  });
  after(() => removeProject(root));

  it('formats `[ISO-8601 time] [type] message {context}` on one line', () => {
    const line = formatLogLine('db', 'first\nsecond', { error: new Error('x\ny') });
    assert.match(line, /^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\] \[db\] first second \{"error":\{"name":"Error","message":"x\\ny","stack":"Error: x\\ny\\n/);
    assert.equal(line.split('\n').length, 2);
    assert.ok(line.endsWith('\n'));
  });

  it('writes control characters as \\u escapes and folds every kind of line break', () => {
    const line = formatLogLine('t\x1b', 'a\x1b[2Jb\x07c\x00d \u2028 e\x85f\r\ng\th\x7f');
    assert.match(line, /\] \[t\\u001b\] a\\u001b\[2Jb\\u0007c\\u0000d e f g\th\\u007f\n$/);
  });

  it('folds each run of blanks and line breaks into one space, in one pass', () => {
    // What it does, as a pattern that takes quadratic time (NEL, a line break, counts as blank).
    const pattern = /[\s\x85]*[\r\n\x85\u2028\u2029]+[\s\x85]*/g;
    const char = fc.constantFrom('a', ' ', '\t', '\n', '\r', '\x85', '\u2028', '\u2029', '\u00a0', '\x0b', '\x01');
    fc.assert(fc.property(fc.array(char, { maxLength: 40 }).map((chars) => chars.join('')), (text) => oneLine(text) === text.replace(pattern, ' ').replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)));
    // `\s*[\n…]+\s*` took seconds here: it retried the run of blanks from each of its characters.
    assert.equal(oneLine(`${' '.repeat(200_000)}\x01`), `${' '.repeat(200_000)}\\u0001`);
  });

  it('never throws for what a value typed `any` may hold, and keeps the type field parseable', () => {
    const message = { toString: () => 'an object\nwith a break' } as unknown as string;
    assert.match(formatLogLine('db', message), /\] \[db\] an object with a break\n$/);
    assert.match(formatLogLine(42 as unknown as string, 'm'), /\] \[42\] m\n$/);
    assert.match(formatLogLine('we]ird', 'm'), /\] \[we\\u005dird\] m\n$/);
    // String() refuses these: a value without a prototype, a toString() that throws.
    assert.match(formatLogLine('t', Object.create(null) as string), /\] \[t\] \[Object: null prototype\] \{\}\n$/);
    assert.match(formatLogLine({ toString() { throw new Error('no'); } } as unknown as string, 'm'), /\] \[\{ toString: \[Function: toString\\u005d \}\] m\n$/);
  });

  it('writes a circular context with its references marked, a function context as nothing', () => {
    const parent: Record<string, unknown> = { name: 'p', shared: { n: 1 } };
    parent.self = parent;
    parent.again = parent.shared;
    parent.child = { up: parent, big: 2n };
    assert.match(formatLogLine('t', 'm', parent), /\] \[t\] m \{"name":"p","shared":\{"n":1\},"self":"\[Circular\]","again":\{"n":1\},"child":\{"up":"\[Circular\]","big":"2"\}\}\n$/);
    assert.match(formatLogLine('t', 'm', () => 1), /\] \[t\] m\n$/);
    const refusing = { toJSON: () => { throw new Error('no'); } };
    assert.match(formatLogLine('t', 'm', refusing), /\] \[t\] m "\[object Object\] \(not written as JSON: no\)"\n$/);
  });

  it('keeps every line whole and in order under a burst of appends, creating shoebox/logs', async () => {
    const writer = new LogWriter(join(root, 'shoebox', 'logs', 'burst.log'), { maxBytes: 1 << 30, keep: 1 });
    for (let i = 0; i < 2000; i++) writer.append(formatLogLine('n', `line ${i} ${'x'.repeat(i % 300)}`));
    await writer.flush();
    const lines = (await readFile(writer.file, 'utf8')).trimEnd().split('\n');
    assert.equal(lines.length, 2000);
    lines.forEach((line, i) => assert.match(line, new RegExp(`^\\[[^\\]]+\\] \\[n\\] line ${i} x{${i % 300}}$`)));
  });

  it('rotates by size, keeping `keep` old files', async () => {
    const file = join(root, 'shoebox', 'logs', 'rotate.log');
    const writer = new LogWriter(file, { maxBytes: 100, keep: 2 });
    for (let i = 0; i < 10; i++) {
      writer.append(`${String(i).repeat(60)}\n`);
      await writer.flush();
    }
    const names = (await readdir(join(root, 'shoebox', 'logs'))).filter((name) => name.startsWith('rotate')).sort();
    assert.deepEqual(names, ['rotate.log', 'rotate.log.1', 'rotate.log.2']);
    assert.equal(await readFile(file, 'utf8'), `${'9'.repeat(60)}\n`);
    assert.equal(await readFile(`${file}.2`, 'utf8'), `${'7'.repeat(60)}\n`);
  });

  it('splits one batch between files at line ends; a line longer than maxBytes gets a file of its own', async () => {
    const file = join(root, 'shoebox', 'logs', 'split.log');
    const writer = new LogWriter(file, { maxBytes: 50, keep: 5 });
    const lines = ['a'.repeat(19), 'b'.repeat(19), 'c'.repeat(79), 'd'.repeat(9), 'é'.repeat(20)].map((text) => `${text}\n`);
    for (const line of lines) writer.append(line); // one batch: nothing awaited in between
    await writer.flush();
    const read = (suffix: string): Promise<string> => readFile(file + suffix, 'utf8');
    // 'é' takes two bytes: 41 bytes do not fit after the 10 of 'd'.
    assert.deepEqual(await Promise.all(['.3', '.2', '.1', ''].map(read)), [lines[0]! + lines[1], lines[2], lines[3], lines[4]]);
  });

  it('sends the lines of a log it cannot write to stderr, saying so once, and writes the file again once it can', async (t) => {
    const file = join(root, 'shoebox', 'logs', 'blocked.log');
    await mkdir(file, { recursive: true }); // a folder where the file should be: EISDIR
    const stderr: string[] = [];
    t.mock.method(process.stderr, 'write', (chunk: string | Uint8Array) => stderr.push(String(chunk)) > 0);
    const writer = new LogWriter(file, { maxBytes: 1 << 20, keep: 1 });
    writer.append('[t] [500] the cause\n');
    await writer.flush();
    writer.append('[t] [404] another\n');
    await writer.flush();
    assert.deepEqual(stderr.slice(1), ['[t] [500] the cause\n', '[t] [404] another\n']);
    assert.match(stderr[0]!, /^svc: cannot write .*blocked\.log: EISDIR.*; its lines go to stderr until it can be written\n$/);
    await rm(file, { recursive: true });
    writer.append('[t] [404] written\n');
    await writer.flush();
    assert.equal(await readFile(file, 'utf8'), '[t] [404] written\n');
    assert.match(stderr.at(-1)!, /^svc: .*blocked\.log is written again\n$/);
    assert.equal(stderr.length, 4);
  });

  it('logError() appends to the served application’s log', async () => {
    useLog(logWriter(root));
    logError('payment', 'card declined', { order: 17 });
    await flushLogs();
    const text = await readFile(join(root, 'shoebox', 'logs', 'svc.log'), 'utf8');
    assert.match(text, /^\[[^\]]+\] \[payment\] card declined \{"order":17\}\n$/);
  });
});
