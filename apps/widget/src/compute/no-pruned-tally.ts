/**
 * The widget's stand-in for @trainplan/protocol's pruned-json.ts, swapped in by the bundle (build.ts): a search answer's
 * tally of the candidates ruled out, each with its reason's text, which the widget never shows (Auto writes the best
 * plan into the form, and a search that finds none says why in its message, whyNothingFits). Without it the widget's
 * search answers carry an empty tally, and the texts only the tally reads (how the search settled candidates:
 * search's prune-reason-text.ts) leave the bundle. It takes pruned-json.ts's argument (the tally) and ignores it.
 */
export const prunedJson = (): [] => [];
