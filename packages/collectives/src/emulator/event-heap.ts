/**
 * An indexed binary min-heap of ids keyed by time, in typed arrays: `update` moves an id after its
 * key changed, in O(log n) (flows whose rate changes get a new finish time). Ids are dense small
 * integers (flow slots), so `position` is an array, not a map.
 */
export class EventHeap {
  private ids: Int32Array;
  private keys: Float64Array;
  private position: Int32Array;
  size = 0;

  constructor(capacity = 1024) {
    this.ids = new Int32Array(capacity);
    this.keys = new Float64Array(capacity);
    this.position = new Int32Array(capacity).fill(-1);
  }

  private grow(id: number): void {
    let capacity = this.position.length;
    while (capacity <= id || capacity <= this.size) capacity *= 2;
    const ids = new Int32Array(capacity); ids.set(this.ids); this.ids = ids;
    const keys = new Float64Array(capacity); keys.set(this.keys); this.keys = keys;
    const position = new Int32Array(capacity).fill(-1); position.set(this.position); this.position = position;
  }

  has(id: number): boolean {
    return id < this.position.length && (this.position[id] as number) >= 0;
  }

  topId(): number { return this.ids[0] as number; }
  topKey(): number { return this.keys[0] as number; }

  /** Inserts `id` or moves it to its new key. */
  set(id: number, key: number): void {
    if (id >= this.position.length || this.size >= this.ids.length) this.grow(id);
    const at = this.position[id] as number;
    if (at < 0) {
      const i = this.size++;
      this.ids[i] = id; this.keys[i] = key; this.position[id] = i;
      this.up(i);
      return;
    }
    const old = this.keys[at] as number;
    this.keys[at] = key;
    if (key < old) this.up(at); else this.down(at);
  }

  /** Empties the heap (its ids' positions reset; O(size)). */
  clear(): void {
    for (let i = 0; i < this.size; i++) this.position[this.ids[i] as number] = -1;
    this.size = 0;
  }

  /** Removes the minimum. */
  pop(): void {
    const top = this.ids[0] as number;
    this.position[top] = -1;
    const last = --this.size;
    if (last > 0) {
      const id = this.ids[last] as number;
      this.ids[0] = id; this.keys[0] = this.keys[last] as number; this.position[id] = 0;
      this.down(0);
    }
  }

  /** Removes `id`, which is in the heap (callers that cannot know ask `has` first). */
  remove(id: number): void {
    const at = this.position[id] as number;
    this.position[id] = -1;
    const last = --this.size;
    if (at === last) return;
    const moved = this.ids[last] as number;
    this.ids[at] = moved; this.keys[at] = this.keys[last] as number; this.position[moved] = at;
    this.up(at); this.down(this.position[moved] as number);
  }

  private up(i: number): void {
    const ids = this.ids; const keys = this.keys; const pos = this.position;
    const id = ids[i] as number; const key = keys[i] as number;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pk = keys[parent] as number;
      if (pk <= key) break;
      const pid = ids[parent] as number;
      ids[i] = pid; keys[i] = pk; pos[pid] = i;
      i = parent;
    }
    ids[i] = id; keys[i] = key; pos[id] = i;
  }

  private down(i: number): void {
    const ids = this.ids; const keys = this.keys; const pos = this.position; const n = this.size;
    const id = ids[i] as number; const key = keys[i] as number;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      const right = child + 1;
      if (right < n && (keys[right] as number) < (keys[child] as number)) child = right;
      const ck = keys[child] as number;
      if (ck >= key) break;
      const cid = ids[child] as number;
      ids[i] = cid; keys[i] = ck; pos[cid] = i;
      i = child;
    }
    ids[i] = id; keys[i] = key; pos[id] = i;
  }
}
