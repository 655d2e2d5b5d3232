/** @trainplan/http: HTTP helpers on the Fetch API alone, for the apps on every runtime (Node, Workers, Deno). */
export { readAtMost } from './read-at-most.ts';
export { ifNoneMatchHolds } from './if-none-match.ts';
