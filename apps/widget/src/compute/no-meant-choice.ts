/**
 * The widget's stand-in for @trainplan/protocol's meant-choice.ts, swapped in by the bundle (build.ts): the "(did you mean
 * full or full-partial?)" an enumerated field's refusal adds for a slip of a known value. The widget's requests are built
 * from its own controls, whose values are the schema's own, so no slip reaches the schema there (a hand-edited link's is
 * refused with the list of values, without the suggestion); the API and the CLI, where people type the values, keep it. Without it the suggestion and its edit distance leave the bundle (the session of
 * 2026-11-30 needed the room: the capacity search's closing deadline searches and the batch across its aim grew it past the
 * 80 kB budget). It takes meantChoice's arguments and ignores them.
 */
export const meantChoice = (): string => '';
