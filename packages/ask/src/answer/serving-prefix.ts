import { KV_BLOCK_TOKENS } from '@trainplan/protocol';
import type { AskParameters } from '../question.ts';
import type { Served } from './serving-request.ts';

/**
 * How a shared prefix is served, said when the question gives one: "a 1,024-token prefix shared and cached: …".
 * The protocol holds it in whole KV blocks of KV_BLOCK_TOKENS, whose size the answer names (the part of a last block
 * is each request's own), and always prefills a prompt's last token, whose logits give the first output token: the
 * tokens it caches are its points' cachedPrefixTokens (992 of a 1,000-token prefix), undefined where no point was planned.
 */
export function prefixCaching(p: AskParameters, cached: number | undefined): string[] {
  const prefix = p.sharedPrefixTokens;
  if (prefix === undefined) return [];
  const n = (x: number) => x.toLocaleString('en-US');
  const prompt = p.promptTokens ?? prefix;
  const opens = `every ${n(prompt)}-token prompt opens with the same ${n(prefix)} tokens (a system prompt)`;
  const blocks = `whole ${KV_BLOCK_TOKENS}-token blocks`;
  if (cached === 0) return [`a ${n(prefix)}-token prefix shared: ${opens}, but it is shorter than one ${KV_BLOCK_TOKENS}-token KV block and only whole blocks are cached, so each request prefills and holds all of its prompt`];
  const how = `held once in the KV cache in ${blocks} and not prefilled again (prefix caching, as vLLM's automatic prefix caching and SGLang's RadixAttention serve)`;
  const own = cached === undefined ? 'the rest of its prompt' : `only the ${n(prompt - cached)} tokens after ${cached === prefix ? 'it' : 'them'}`;
  const part = cached === undefined || cached === prefix ? ''
    : cached === prompt - 1 ? `; ${n(cached)} of them are cached, as the prompt's last token is always prefilled (its logits give the first output token)`
      : `; ${n(cached)} of them are cached, in ${blocks} (the part of a last block is each request's own)`;
  return [`a ${n(prefix)}-token prefix shared and cached: ${opens}, ${how}${part}; each request prefills and holds ${own}, attending over all of them`];
}

/** The tokens of a shared prefix the protocol caches, from any point of its answer (the same for all). */
export function cachedPrefixOf(a: Served): number | undefined {
  const points = [a.best, a.closest?.point, ...a.frontier, ...a.byShape.map((s) => (s.ok ? s.largestBatch : undefined))];
  return points.find((x) => x?.cachedPrefixTokens !== undefined)?.cachedPrefixTokens;
}
