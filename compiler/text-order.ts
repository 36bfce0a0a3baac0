/** Code-unit order, the same on every machine: `localeCompare` follows the locale of the environment (LANG), so output sorted by it could differ between two machines. */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
