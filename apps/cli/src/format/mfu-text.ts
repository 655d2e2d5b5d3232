import { fp8Peak, peakShareText, type Fp8Peak } from '@trainplan/protocol';
import { formatPercent } from '@trainplan/units';

export { fp8Peak, type Fp8Peak };

/** An MFU or HFU with its denominator where that is the FP8 peak (@trainplan/protocol peakShareText, as the chat bot says it). */
export const mfuText = (share: number, peak: Fp8Peak | undefined): string => peakShareText(share, peak);

/** A table's MFU header: one column, or, against the FP8 peak, two (the FP8 peak's, then the 16-bit peak's). */
export const mfuHeaders = (peak: Fp8Peak | undefined): string[] =>
  (peak === undefined ? ['MFU'] : ['MFU (FP8 peak)', `MFU (${peak.sixteen} peak)`]);

/** A table row's MFU cells under mfuHeaders; `empty` where the row has no MFU (a size where nothing runs). */
export const mfuCells = (share: number | undefined, peak: Fp8Peak | undefined, empty = ''): string[] => {
  if (share === undefined) return mfuHeaders(peak).map(() => empty);
  return peak === undefined ? [formatPercent(share)] : [formatPercent(share), formatPercent(share * peak.toSixteen)];
};
