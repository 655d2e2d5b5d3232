/**
 * A pricing term with no price: on-demand, reserved, spot or preemptible capacity, a committed-use discount. trainplan keeps
 * no price list (prices differ by provider, region and date), so such a term prices nothing, and is said not to wherever an
 * answer asks for a price: beside a cost question's GPU-hours (gpu-hours-asked.ts) and in the cheapest curve's notes
 * (frontier-notes.ts). QA: "on AWS p5 on-demand" answered in GPU-hours with the term unsaid, then on the curve's path too.
 */
const PRICING_TERM = /\b(on[\s-]*demand|reserved(?:[\s-]+instances?)?|spot(?:[\s-]+instances?)?|preemptible|committed[\s-]+use)\b/;

/** ' "on-demand" prices nothing here: …', said after a request for a price; '' where the question names no pricing term. */
export function pricingTermClause(question: string): string {
  const term = PRICING_TERM.exec(question.toLowerCase())?.[1];
  return term === undefined ? '' : ` "${term}" prices nothing here: trainplan keeps no price list, prices differing by provider, region and date.`;
}
