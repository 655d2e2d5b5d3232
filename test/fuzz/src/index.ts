export type { Mutation } from './hostile.ts';
export { hostileScalar, hostileValue, hostileText, deepNesting, mutationsOf, pathsOf, replaceAt } from './hostile.ts';
export { validScenario } from './scenarios.ts';
export { numbersIn } from './walk.ts';
