/**
 * The widget's stand-in for @trainplan/protocol's shape-defaults-warning.ts, swapped in by the bundle (build.ts): that
 * warning names the Llama fields (model.positionEmbedding, normalization, linearBias) a gated shape left to the GPT
 * defaults, and the widget's shape form has none of those fields to change (a link's own values are kept as given,
 * kept-fields.ts), so it would name wire fields the reader cannot act on, for about 150 B gzip of the 80 kB budget.
 * The CLI and the API say it. It takes the module's argument (the model object) and ignores it.
 */
export const shapeDefaultsWarnings = (): [] => [];
