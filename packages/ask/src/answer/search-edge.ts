/**
 * The capacity search's note that an answer reached its largest size (@trainplan/search's maxNodesText, carried as a
 * response's `note`: "the search's largest size is 8,192 nodes; larger clusters may be faster: ask --nodes N"), said
 * in the bot's words, a question for a size rather than the CLI's flag. Empty when the note says no such thing.
 */
export function searchEdgeNote(note: string | undefined): string[] {
  const m = note === undefined ? null : /the search's largest size is ([\d,]+ nodes?)/.exec(note);
  return m === null ? [] : [`The search's largest size is ${m[1]}: a larger cluster may be faster; ask "how long on N nodes" for one size.`];
}
