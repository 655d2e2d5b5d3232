export { createApi, MAX_BODY_BYTES } from './app.ts';
