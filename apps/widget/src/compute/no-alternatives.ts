/**
 * The widget's stand-in for @trainplan/search's explainAlternatives (explain.ts), swapped in by the bundle (build.ts):
 * runSearch answers with the plans one step from the best and why each loses, which the widget never shows (Auto
 * writes the best plan into the form and names it, trainplan-estimator.ts `#search`). The explanations were 1.4 kB
 * of the 80 kB gzip budget (build.ts) and an estimate per alternative on every search in the page. The widget's
 * search answers carry no alternatives; the API and the CLI explain them. It takes explain.ts's arguments (base, best,
 * options) and ignores them.
 */
export const explainAlternatives = (): [] => [];
