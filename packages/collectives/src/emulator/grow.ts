/** `array` with room for `index` (doubled until it fits), its contents kept. */
export function grow<T extends Float64Array | Int32Array | Uint8Array>(array: T, index: number): T {
  let capacity = array.length;
  while (capacity <= index) capacity *= 2;
  const next = new (array.constructor as new (n: number) => T)(capacity);
  next.set(array);
  return next;
}
