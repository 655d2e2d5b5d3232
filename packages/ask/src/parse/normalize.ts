import { decimalCommas, spelledScales, writtenNumbers } from '../lexicon/numbers.ts';

/**
 * Lower case, one kind of dash, decimal commas as points ("2,5 days"), no thousands separators (numbers.ts' writtenNumbers reads the others: "1 000 000",
 * "1_000_000", "3x10^11"), spelt-out counts in digits (spelledScales), single spaces.
 */
export function normalize(text: string): string {
  // A decimal comma before a unit first ("2,5 days" was 5 days: the comma was a break), before thousands separators go.
  return spelledScales(writtenNumbers(decimalCommas(text.toLowerCase()))
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\u00d7/g, 'x')
    // "8xH100", "8xA100": GPUs per box before the GPU's name, spaced so the name is a word of its own.
    .replace(/(\d)x(?=dgx|gpus?\b|[a-z]{1,3}\d{2,4})/g, '$1x ')
    // "H100×512": the count after the name, spaced as "H100 x 512" is ("h100x512" was no GPU at all). Not AMD's MI300X.
    .replace(/\b(?!mi)([a-z]{1,3}\d{2,4})x(?=\d)/g, '$1 x ')
    // A thousands separator, before a scale letter too ("2,000B tokens" was 0 tokens).
    .replace(/(\d),(?=\d{3}(?!\d))/g, '$1')
    // Counts misspelt as people type them: "bilion", "billon", "trilion", "milion" ("300 bilion tokens" was not read).
    .replace(/\b(b|tr|m)il+i?o+n(s?)\b/g, '$1illion$2')
    // "tokns", "tokenz" ("2T tokns" was no budget, and the default taken unsaid); "hw many", "how mnay", "how lnog".
    .replace(/\b(?:tokns|tokenz|toekns|tokesn|tkns)\b/g, 'tokens')
    // Units of time and nodes as fingers slip: "60 dyas" was read as no deadline at all, and the default 30 days taken.
    .replace(/\b(?:dyas|dasy|dys|dayz)\b/g, 'days')
    .replace(/\b(?:weeks?k|wekes|weks|wkes)\b/g, 'weeks')
    .replace(/\b(?:mnoths|monhts|montsh|mnths|moths)\b/g, 'months')
    .replace(/\b(?:nodse|ndoes|noeds|ndes|nods)\b/g, 'nodes')
    .replace(/\bhw (?=many|much|long)/g, 'how ')
    // "a 70-billion-parameter model", "a 2-trillion-token budget": the scale's word apart from its number, as the count patterns read it.
    .replace(/(\d)-(thousand|million|billion|trillion)\b/g, '$1 $2')
    // The maker before a GPU's name: "512 nvidia h100s" is 512 H100 (QA: "nvidia" between the count and the name left the 512
    // unread, and 128 nodes planned as "no cluster size given").
    .replace(/\bnvidia(?:'s)?[\s-]+(?=(?:tesla[\s-]+)?(?:[a-z]{1,3}\d{2,4}|dgx|hgx)(?![a-z]))/g, '')
    // Units of time in the languages a chat is often typed in, after a count: "en 10 jours", "in 10 Tagen", "30 días" (QA: "30
    // jours" was left unread and the default 30 days taken unsaid). Only after a number, where each can be nothing else.
    .replace(/(\d)\s*(?:jours?|d[ií]as?|tage?n?|giorni|dagen|dagar)\b/g, '$1 days')
    .replace(/(\d)\s*(?:semaines?|semanas?|wochen?|settimane|weken|veckor)\b/g, '$1 weeks')
    .replace(/(\d)\s*(?:mois|meses|monate?n?|mesi|maanden|m[aå]nader)\b/g, '$1 months')
    .replace(/(\d)\s*(?:heures?|horas?|stunden?|uren|timmar)\b/g, '$1 hours')
    // GPU-hours written with the GPU's name: "600k H100h" and "600k hours of H100" are "600k H100 hours" (QA: said not read,
    // and a default 128 nodes planned). Only after a count, and only "of" ("36 hours on H100" is a length on the GPUs).
    .replace(/(\d[km]?)\s*([a-z]{1,3}\d{2,4}x?)h\b/g, '$1 $2 hours')
    .replace(/(\d[km]?)\s*(?:gpu[\s-]*)?(?:hours|hrs)\s+of\s+(?:an?\s+)?([a-z]{1,3}\d{2,4}x?)s?\b(?![\s-]*(?:nodes?|gpus?|servers?|machines?|boxes|hosts?|clusters?))/g, '$1 $2 hours')
    // "in a fortnite": the game's name for the span ("a fortnight" was read as no deadline, and the default 30 days taken).
    .replace(/\bfortnite\b/g, 'fortnight')
    // A Hugging Face repository's owner before the model: "Qwen/Qwen2.5-72B" is "Qwen2.5-72B" (QA: refused as "Qwen", then the
    // "Qwen2.5-72B" left said as a second model not compared).
    .replace(/\b[a-z][\w.-]*\/(?=[a-z][\w.-]*?\d+(?:\.\d+)?b\b)/g, '')
    // A counter after the GPU's name: "H100 64台", "H100を512台で" are 64 and 512 H100 (the number was left unread beside the name).
    .replace(/\b([a-z]{1,3}\d{2,4}[a-z]*)\s*[をがの]?\s*(\d+)\s*[台张張枚個个块塊]/g, '$2 $1 ')
    // Counters of Japanese and Chinese between a count and what it counts: "512 台の H100", "512张H100" are 512 H100.
    .replace(/(\d)\s*[台张張枚個个块塊](?:\s*の)?\s*/g, '$1 ')
    // "2T トークン": tokens ("トークン" was not read, and a default budget taken).
    .replace(/\s*トークン/g, ' tokens ')
    .replace(/\bhow (?:mnay|amny|manny|mny)\b/g, 'how many')
    .replace(/\bhow (?:lnog|logn|lon|log)\b/g, 'how long')
    // "1F-1B": Megatron's 1F1B schedule spelt apart, never a 1B model (QA: said a second model not compared).
    .replace(/\b1f[\s-]1b\b/g, '1f1b')
    .replace(/[`*_"“”‘’]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim());
}
