// The counters behind RateLimitKnots stay bounded however many addresses arrive.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FixedWindows } from '../../runtime/knots/fixed-windows.ts';

const address = (i: number): string => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

describe('FixedWindows', () => {
  it('never tracks more than maxKeys, even for 100,000 distinct addresses in one window', () => {
    const windows = new FixedWindows(60_000, 1_000);
    let largest = 0;
    for (let i = 0; i < 100_000; i++) {
      windows.hit(address(i), 1_000);
      largest = Math.max(largest, windows.size);
    }
    assert.equal(largest, 1_000);
    assert.equal(windows.hit(address(99_999), 1_000).count, 2, 'the newest windows are kept');
    assert.equal(windows.hit(address(0), 1_000).count, 1, 'the oldest were dropped');
  });

  it('drops expired windows as new ones open, well below the cap', () => {
    const windows = new FixedWindows(60_000, 1_000_000);
    for (let i = 0; i < 100_000; i++) windows.hit(address(i), 0);
    assert.equal(windows.size, 100_000);
    windows.hit('192.0.2.1', 60_000);
    assert.equal(windows.size, 1);
  });

  it('counts within a window and reopens it once it has closed', () => {
    const windows = new FixedWindows(1_000, 10);
    assert.deepEqual(windows.hit('a', 0), { count: 1, resetAt: 1_000 });
    assert.deepEqual(windows.hit('a', 999), { count: 2, resetAt: 1_000 });
    windows.hit('b', 500);
    assert.deepEqual(windows.hit('a', 1_000), { count: 1, resetAt: 2_000 });
    // a reopened window moves behind b's, so b's expiry is found first
    windows.hit('c', 1_600);
    assert.equal(windows.size, 2);
    assert.equal(windows.hit('a', 1_600).count, 2);
  });

  it('closes the windows opened before the clock was set back, and drops them in passing', () => {
    const windows = new FixedWindows(60_000, 1_000);
    for (let i = 0; i < 5; i++) windows.hit('a', 3_600_000);
    windows.hit('b', 3_600_000);
    assert.deepEqual(windows.hit('a', 1_000), { count: 1, resetAt: 61_000 });
    windows.hit('c', 61_000);
    assert.equal(windows.size, 1, 'b, opened an hour ahead, and a, now closed, are dropped');
  });
});
