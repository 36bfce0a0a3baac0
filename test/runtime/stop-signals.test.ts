// Which stop signals count as a second request to stop (runtime/server/shutdown.ts): the
// same signal right behind the first is npm passing that one on, not a second Ctrl-C.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { SAME_STOP_MS, onStopSignals } from '../../runtime/server/shutdown.ts';

describe('onStopSignals', () => {
  let unlisten: (() => void) | undefined;
  afterEach(() => unlisten?.());

  const heard = (): Array<[NodeJS.Signals, boolean]> => {
    const calls: Array<[NodeJS.Signals, boolean]> = [];
    unlisten = onStopSignals((signal, again) => calls.push([signal, again]));
    return calls;
  };
  const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`takes the same ${signal} at once behind the first for the same request`, () => {
      const calls = heard();
      process.emit(signal, signal);
      process.emit(signal, signal);
      assert.deepEqual(calls, [[signal, false]]);
    });

    it(`takes the same ${signal} ${SAME_STOP_MS} ms and more after the first for a second request`, async () => {
      const calls = heard();
      process.emit(signal, signal);
      await after(SAME_STOP_MS + 20);
      process.emit(signal, signal);
      assert.deepEqual(calls, [
        [signal, false],
        [signal, true],
      ]);
    });
  }

  it('takes another signal right behind the first for a second request', () => {
    const calls = heard();
    process.emit('SIGTERM', 'SIGTERM');
    process.emit('SIGINT', 'SIGINT');
    assert.deepEqual(calls, [
      ['SIGTERM', false],
      ['SIGINT', true],
    ]);
  });

  it('stops listening when told to', () => {
    const before = process.listenerCount('SIGINT');
    heard();
    assert.equal(process.listenerCount('SIGINT'), before + 1);
    unlisten!();
    assert.equal(process.listenerCount('SIGINT'), before);
  });
});
