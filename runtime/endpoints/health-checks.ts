// The probes behind the health endpoint. Each resolves (never rejects) to a
// `CheckResult`; `withDeadline` bounds any of them so one hung dependency cannot hold
// the whole answer.
import { randomUUID } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { HealthService } from '../config.ts';
import { ensureFolder, shoeboxPath } from '../shoebox/paths.ts';
import { writeWhole } from '../shoebox/write-whole.ts';

export interface CheckResult {
  status: 'ok' | 'down';
  latencyMs: number;
  error?: string;
}

/** The cache folder is usable when a file can be written to it and removed again. */
export async function probeCacheFolder(root: string): Promise<CheckResult> {
  const started = performance.now();
  try {
    const probe = join(await ensureFolder(shoeboxPath(root, 'cache')), `.health-${randomUUID()}`);
    await writeWhole(probe, 'ok');
    await unlink(probe);
    return ok(started);
  } catch (e) {
    return down(started, (e as Error).message);
  }
}

/** A service is up when its port accepts a TCP connection within its `timeoutMs`. */
export function probeService(service: HealthService, defaultTimeoutMs: number): Promise<CheckResult> {
  const started = performance.now();
  const timeoutMs = service.timeoutMs ?? defaultTimeoutMs;
  return new Promise((resolve) => {
    const socket = connect({ host: service.host, port: service.port });
    const finish = (error?: string): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(error === undefined ? ok(started) : down(started, error));
    };
    const timer = setTimeout(() => finish(`no connection to ${service.host}:${service.port} within ${timeoutMs} ms`), timeoutMs);
    socket.once('connect', () => finish());
    socket.once('error', (e) => finish(e.message));
  });
}

/** `check`, or `down` once `ms` have passed without an answer. */
export function withDeadline(check: Promise<CheckResult>, ms: number): Promise<CheckResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve(down(started, `no answer within ${ms} ms`)), ms);
  });
  return Promise.race([check, late]).finally(() => clearTimeout(timer));
}

const elapsed = (started: number): number => Math.round((performance.now() - started) * 100) / 100;
const ok = (started: number): CheckResult => ({ status: 'ok', latencyMs: elapsed(started) });
const down = (started: number, error: string): CheckResult => ({ status: 'down', latencyMs: elapsed(started), error });
