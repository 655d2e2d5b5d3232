/**
 * Trusted Types (w3c.github.io/trusted-types/dist/spec/): a page whose CSP says `require-trusted-types-for 'script'`
 * makes assigning a string to innerHTML, or starting a Worker from a string URL, throw. The widget then makes its
 * markup and its worker's URL through a policy named `trainplan-widget`, which the page lists in its `trusted-types`
 * directive (README). The policy passes them through unchanged, as they are without Trusted Types: the markup is the
 * widget's own templates with its values escaped (charts/markup.ts esc), and the URL is this module's own or a blob
 * importing it (compute/off-thread.ts).
 */
interface Policy { createHTML(s: string): string; createScriptURL(s: string): string }

/** Null where the page has no Trusted Types or refuses the policy (not listed, or a second copy of the widget made it). */
let policy: Policy | null | undefined;

function made(): Policy | null {
  if (policy === undefined) try {
    const pass = (s: string) => s;
    policy = (globalThis as { trustedTypes?: { createPolicy(name: string, rules: object): Policy } })
      .trustedTypes?.createPolicy('trainplan-widget', { createHTML: pass, createScriptURL: pass }) ?? null;
  } catch {
    policy = null; // plain strings: where Trusted Types are enforced, the sink refuses them as it would have
  }
  return policy;
}

/** Markup for innerHTML: a TrustedHTML where the page enforces Trusted Types (typed as the string it stands for). */
export const trustedHtml = (html: string): string => made()?.createHTML(html) ?? html;

/** A worker script's URL: a TrustedScriptURL where the page enforces Trusted Types. */
export const trustedScriptUrl = (url: string): string => made()?.createScriptURL(url) ?? url;
