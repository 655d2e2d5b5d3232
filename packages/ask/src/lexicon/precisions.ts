import type { AskParameters } from '../question.ts';
import { takePrecision, type Scanner } from './quantities.ts';

/**
 * A second precision where a question plans one: "is fp8 faster than bf16", "compare bf16 vs fp8", "in bf16 and fp8", or
 * FP8 asked about alone ("does fp8 help", "is fp8 worth it"), which compares it with the GPU's 16-bit precision. QA found
 * one of two precisions named dropped unsaid, and "does fp8 help" answered with the FP8 plan alone (nothing to weigh it by).
 */

type Precision = NonNullable<AskParameters['precision']>;

/** Words asking what FP8 gains over the 16-bit default. */
const ASKS_GAIN = /\b(?:help|helps|worth|faster|speed\s*up|speedup|benefit|gain|improve\w*|difference)\b/;

/**
 * The precisions compared with `first` (takePrecision's), the second taken out of the text: a second one named, or for FP8
 * asked about alone, `sixteenBit` (the GPU's default). Undefined for a question of one precision.
 */
export function takeComparedPrecisions(s: Scanner, first: Precision | undefined, text: string, sixteenBit: Precision): Precision[] | undefined {
  if (first === undefined) return undefined;
  const second = takePrecision(s);
  if (second !== undefined && second !== first) return [second];
  if (first === 'fp8' && sixteenBit !== 'fp8' && ASKS_GAIN.test(text)) return [sixteenBit];
  return undefined;
}
