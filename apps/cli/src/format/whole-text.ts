import { formatAmount } from '@trainplan/units';

/**
 * GPU-hours or a cost, whole and grouped by thousands ("476,157") from 100 up, to three figures below ("0.250"): the
 * reports' one way to write them (@trainplan/units formatAmount).
 */
export const wholeText = (x: number): string => formatAmount(x);
