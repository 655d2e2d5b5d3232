import { attendLimit } from '@trainplan/model';
import { modelContextWindowOf, modelShapeOf } from './model-of.ts';
import type { AskParameters } from './question.ts';

/**
 * A context length stated in a serving question ("at a 32k context", "with a context of 8,192 tokens", "max context 4k"):
 * the window a request's tokens are held in, its prompt and the tokens it generates together, as vLLM's max_model_len and
 * TensorRT-LLM's max_seq_len bound them (a request past it is refused, not served). Beside a prompt length it is a bound,
 * never the plan's length: QA: "2,000-token prompts at a 32k context" planned 2,000 + 512 tokens and never said the 32k, and
 * "a 2k prompt and 3k output, max context 4k" planned 5,120 tokens a request past the 4,096 asked.
 */

const n = (x: number): string => x.toLocaleString('en-US');

/**
 * The output a stated context leaves beside the prompt where the default output would overrun it ("2k prompts, max context
 * 2.25k": 2,048 + 512 is past 2,304, so 256): the context less the prompt, said with why. Undefined where the default fits, no
 * context or prompt is known, or the prompt fills the context (refused instead: contextProblem).
 */
export function outputWithinContext(p: AskParameters, defaultOutput: number): { tokens: number; text: string } | undefined {
  const context = p.seqLength;
  const prompt = p.promptTokens;
  if (context === undefined || prompt === undefined || prompt >= context || prompt + defaultOutput <= context) return undefined;
  const tokens = context - prompt;
  return {
    tokens,
    text: `${n(tokens)} generated tokens per request: the ${n(context)}-token context asked less the ${n(prompt)}-token prompt (no output length given; ${defaultOutput} otherwise, which would overrun it)`,
  };
}

/**
 * The shortest prompt the context less the default output may leave: as long as that output (512 tokens). From a context of
 * 1,024 tokens up the default 512 generated tokens are kept and the prompt fills the rest (defaults.ts fillServing), as every
 * context was planned before the split below: 1k as 512 + 512, 2k as 1,536 + 512 (QA: a 4 : 1 split of every context under the
 * defaults' 2,560 tokens changed those to 819 + 205 and 1,638 + 410, answers that had fitted).
 */
const SHORTEST_FILLED_PROMPT = 512;

/**
 * The default prompt and output cut to fit a context stated with neither length, where the context less the default output
 * would leave a prompt shorter than SHORTEST_FILLED_PROMPT ("max context 512": none at all): the context split as the defaults
 * split theirs (2,048 : 512, 4 : 1), so a request fills the window, the worst case, as at a longer context. QA: "serve
 * llama3-8b on one H100 with max context 512" was refused for "the 2,048-token prompt (none given)", a length no one asked.
 * Undefined where a length is stated, no context is, the context less the default output leaves a prompt of 512 tokens or
 * more, or it is too short to hold a token of each.
 */
export function lengthsWithinContext(p: AskParameters, defaultPrompt: number, defaultOutput: number): { prompt: number; output: number; texts: [string, string] } | undefined {
  const context = p.seqLength;
  const defaults = defaultPrompt + defaultOutput;
  if (context === undefined || p.promptTokens !== undefined || p.outputTokens !== undefined || context - defaultOutput >= SHORTEST_FILLED_PROMPT) return undefined;
  const output = Math.max(1, Math.round((context * defaultOutput) / defaults));
  const prompt = context - output;
  if (prompt < 1) return undefined;
  const split = `the ${n(context)}-token context asked, split ${Number((defaultPrompt / defaultOutput).toFixed(1))} : 1 as the default ${n(defaultPrompt)}-token prompt and ${n(defaultOutput)} generated tokens are, `
    + `since less the ${n(defaultOutput)} generated it would leave a prompt under ${n(SHORTEST_FILLED_PROMPT)} tokens`;
  return {
    prompt,
    output,
    texts: [
      `a ${n(prompt)}-token prompt (${split}: the worst case, every request filling the window; say a prompt length to plan typical requests)`,
      `${n(output)} generated token${output === 1 ? '' : 's'} per request (the ${n(context)}-token context asked less the ${n(prompt)}-token prompt; no output length given)`,
    ],
  };
}

/**
 * Why a serving plan cannot be made where its prompt and output overrun the context stated (`stated`, the question's
 * facts, says which lengths were given; `p`, with the defaults): a request holds both within its context, so the question
 * asks for what no engine serves. Undefined where they fit, or no context is stated.
 */
export function contextProblem(stated: AskParameters, p: AskParameters): string | undefined {
  const context = stated.seqLength;
  const prompt = p.promptTokens ?? 0;
  const output = p.outputTokens ?? 0;
  if (context === undefined || prompt + output <= context) return undefined;
  const given = (x: number | undefined) => (x === undefined ? ' (none given)' : '');
  const held = 'a request holds its prompt and the tokens it generates within its context (vLLM\'s max_model_len refuses one past it)';
  const fills = (x: number) => (x === context ? 'fill' : 'are longer than');
  // The length asked that alone fills the context is the one named: a prompt given first, then an output given (whose
  // prompt, none being given, is the default), then a default prompt past a short context.
  if (stated.promptTokens === undefined && stated.outputTokens !== undefined && output >= context) {
    return `the ${n(output)} output tokens asked ${fills(output)} the ${n(context)}-token context asked, leaving no room for a prompt: ${held}; say fewer output tokens or a longer context`;
  }
  // Neither length given, and a context too short for the defaults cut to fit it (lengthsWithinContext): the context alone
  // is what is short, never a default prompt no one asked.
  if (stated.promptTokens === undefined && stated.outputTokens === undefined && stated.sharedPrefixTokens === undefined) {
    return `the ${n(context)}-token context asked has no room for a prompt and a token generated: ${held}; say a longer context`;
  }
  if (prompt >= context) {
    return `the ${n(prompt)}-token prompt${given(stated.promptTokens)} ${prompt === context ? 'fills' : 'is longer than'} the ${n(context)}-token context asked, leaving no room for the tokens it generates: ${held}; say a shorter prompt or a longer context`;
  }
  return `a ${n(prompt)}-token prompt${given(stated.promptTokens)} and ${n(output)} output tokens${given(stated.outputTokens)} are ${n(prompt + output)} tokens, past the ${n(context)}-token context asked: ${held}; `
    + 'say a shorter prompt or output, or a longer context';
}

/**
 * Where the context stated is longer than a request's prompt and output, one line saying it leaves the plan as it is: a
 * paged KV cache holds in fixed-size blocks the tokens each request has, not its whole window (Kwon et al., "Efficient
 * Memory Management for Large Language Model Serving with PagedAttention", SOSP 2023: vLLM; TensorRT-LLM's paged KV cache
 * likewise), so the memory, batch and latency planned are the request's tokens'. A context past what the model attends
 * over is said too (windowNote). Empty where no context is stated or the lengths fill it.
 */
export function contextNote(stated: AskParameters, p: AskParameters): string[] {
  const context = stated.seqLength;
  const prompt = p.promptTokens ?? 0;
  const output = p.outputTokens ?? 0;
  if (context === undefined || prompt + output >= context) return [];
  return [`the ${n(context)}-token context asked holds each request's ${n(prompt)} prompt + ${n(output)} output tokens and leaves the plan unchanged: a paged KV cache `
    + `(vLLM's PagedAttention, Kwon et al. SOSP 2023; TensorRT-LLM's paged KV cache) holds the tokens a request has, not the whole window${windowNote(p, context)}`];
}

/**
 * What a context window of `context` tokens asks of the model, where past what it is known to attend over (@trainplan/model
 * attendLimit, which the search's contextWarnings judges a request's tokens by too): past the context window its preset
 * records (Llama 3.1's 131,072), a long-context variant; past a learned position table (GPT-3's 2,048), a variant trained at
 * that length, since as published it has no position beyond it; otherwise only that the sequence length is the length it was
 * trained at, no window being recorded: rotary and ALiBi models may attend past it (QA: "a window past Llama 3.1 70B's
 * own 8,192 tokens takes a long-context variant" took its pretraining length for a window; it serves 131,072).
 */
function windowNote(p: AskParameters, context: number): string {
  const shape = modelShapeOf(p);
  if (shape === undefined) return '';
  const limit = attendLimit(shape, modelContextWindowOf(p));
  if (context <= limit.tokens) return '';
  if (limit.kind === 'window') return `; a window past ${shape.name}'s ${n(limit.tokens)}-token context window takes a long-context variant of it`;
  if (limit.kind === 'learned') {
    return `; ${shape.name} has ${n(limit.tokens)} learned positions and none past them: a window past them takes a variant trained at that length`;
  }
  return `; ${n(limit.tokens)} tokens is the sequence length ${shape.name} was trained at, and no longer context window is recorded for it: `
    + 'whether it attends over the whole window asked is not said here';
}
