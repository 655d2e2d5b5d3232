import { GiB } from '@trainplan/units';
import type { CollectiveRequest } from './collective-schema.ts';

/** nccl-tests' `-b 8 -e 16G -f 2`: 8 B, 16 B, … 16 GiB. */
export function defaultSweepBytes(): number[] {
  const sizes: number[] = [];
  for (let bytes = 8; bytes <= GiB(16); bytes *= 2) sizes.push(bytes);
  return sizes;
}

/** Sizes a request asks for: its list, its one size, or the default sweep. */
export const sizeCount = (r: Pick<CollectiveRequest, 'size' | 'sizes'>): number =>
  r.sizes?.length ?? (r.size !== undefined ? 1 : defaultSweepBytes().length);
