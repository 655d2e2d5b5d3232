/** Where a phrase was found in the question, so the parser can blank it before the next lookup. */
export interface Match {
  index: number;
  length: number;
}
