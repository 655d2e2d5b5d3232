import { describe, expect, it } from 'vitest';
import { readAtMost } from '../src/read-at-most.ts';
import { flood } from './support/retention.ts';

const MiB = 1024 * 1024;
const request = (body: BodyInit) => new Request('http://localhost/', { method: 'POST', body, duplex: 'half' } as RequestInit);

describe('readAtMost', () => {
  it('returns the bytes of a body within the limit, exactly', async () => {
    const bytes = await readAtMost(request('héllo'), 16);
    expect(new TextDecoder().decode(bytes)).toBe('héllo');
    expect(await readAtMost(request(new Uint8Array(16)), 16)).toHaveLength(16);
  });

  it('is undefined one byte over the limit, and empty for no body', async () => {
    expect(await readAtMost(request(new Uint8Array(17)), 16)).toBeUndefined();
    expect(await readAtMost(new Request('http://localhost/'), 16)).toEqual(new Uint8Array(0));
  });

  it('reads a chunked body of 64 MiB to the end but keeps at most the limit plus one chunk of it', async () => {
    const { body, retained } = flood({ chunkBytes: MiB, chunks: 64, measureAfter: 48 });
    expect(await readAtMost(request(body), 16 * 1024)).toBeUndefined();
    // 48 chunks of 1 MiB read when counted: a reader that buffered the body holds all 48 (Request.arrayBuffer(): 48 MiB).
    // Past the 16 KiB limit none is kept but the chunk in hand, so one, at most two, is alive.
    expect(retained()).toBeLessThan(4 * MiB);
  });
});
