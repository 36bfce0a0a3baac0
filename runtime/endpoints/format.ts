// Numbers as people read them on the dashboard.

const UNITS: ReadonlyArray<readonly [string, number]> = [
  ['d', 86_400],
  ['h', 3_600],
  ['min', 60],
  ['s', 1],
];

/** `42 s`, `3 min 12 s`, `5 h 2 min`, `2 d 7 h`: the two largest units that are not zero. */
export function formatDuration(seconds: number): string {
  let rest = Math.floor(seconds);
  const parts: string[] = [];
  for (const [name, size] of UNITS) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0) parts.push(`${count} ${name}`);
  }
  return parts.slice(0, 2).join(' ') || '0 s';
}

/** `512 KiB`, `48.3 MiB`. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 || value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** `0.42 ms`, `12.3 ms`, `1,204 ms`. */
export function formatMs(ms: number): string {
  return ms < 1 ? `${ms.toFixed(2)} ms` : ms < 100 ? `${ms.toFixed(1)} ms` : `${Math.round(ms).toLocaleString('en')} ms`;
}

/**
 * Milliseconds to the microsecond, as the metrics endpoint shows durations: a sum of
 * clock readings carries binary noise (`0.28297489999999925`) that means nothing. Whole
 * microseconds divided by a power of ten give the double nearest the decimal, which
 * prints as that decimal.
 */
export const roundedMs = (ms: number): number => Math.round(ms * 1000) / 1000;

/** Milliseconds as seconds, to the microsecond, for the Prometheus text. */
export const roundedSeconds = (ms: number): number => Math.round(ms * 1000) / 1e6;
