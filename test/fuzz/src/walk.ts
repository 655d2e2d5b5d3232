/** Every number inside a JSON value, with its path, for "no NaN or Infinity anywhere" checks. */
export function numbersIn(value: unknown, path = ''): { path: string; value: number }[] {
  if (typeof value === 'number') return [{ path, value }];
  if (value === null || typeof value !== 'object') return [];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  return entries.flatMap(([k, v]) => numbersIn(v, path === '' ? k : `${path}.${k}`));
}
