/**
 * The widget's stand-in for @trainplan/protocol's resolved-extensions.ts, swapped in by the bundle (build.ts): the fields
 * of an estimate's `resolved` that let it be fed back as a scenario (the overlap switches, the token budget, a model's
 * shape), which the widget neither shows nor hands on: its links carry the form's scenario, as given (hash.ts). The
 * widget's own answers lack them, as an older API's do, which its reader takes (estimate-schema.ts). It takes
 * resolvedExtensions' argument and ignores it.
 */
export const resolvedExtensions = (): object => ({});
