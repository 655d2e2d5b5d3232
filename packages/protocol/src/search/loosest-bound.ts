/**
 * The loosest latency bound an inference request may give, each of maxPrefillSeconds and maxDecodeSecondsPerToken: an hour
 * (inference-request.ts refuses more). The remedies loosen a first-token bound up to it and no further (inference-rate-remedy.ts).
 */
export const LOOSEST_BOUND_SECONDS = 3600;
