/**
 * The widget's stand-in for @trainplan/protocol's fewer-nodes-json.ts, swapped in by the bundle (build.ts): a search
 * answer's smaller cluster that steps faster (a search on each of a few smaller sizes), which the widget never shows: Auto
 * writes the best plan on the form's nodes into the form. Without it the widget's searches run no extra sizes, and
 * @trainplan/search's fewer-nodes.ts leaves the bundle. It takes fewerNodesJson's arguments and ignores them.
 */
export const fewerNodesJson = (): undefined => undefined;
