/** GPU-hours or a cost, whole and grouped by thousands ("476,157"): the reports' one way to write them. */
export const wholeText = (x: number): string => Math.round(x).toLocaleString('en-US');
