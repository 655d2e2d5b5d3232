/** @trainplan/chatops: the Slack and Discord bot as a runtime-free Hono app (bound in infra/). */
export { createChatApp, MAX_CHAT_BODY_BYTES, DEFAULT_CHAT_CANDIDATE_BUDGET } from './app.ts';
export type { ChatAppOptions, ChatEnv } from './app.ts';
export { CHAT_OPENAPI_PATHS } from './chat-openapi.ts';
export type { Fetch as ChatFetch } from './deliver.ts';
export { verifySlackRequest, checkTimestamp, MAX_REQUEST_AGE_SECONDS } from './verify-slack.ts';
export type { Verification } from './verify-slack.ts';
export { verifyDiscordRequest, isDiscordPublicKey } from './verify-discord.ts';
export { toSlackMessage } from './slack-message.ts';
export type { SlackMessage, SlackBlock } from './slack-message.ts';
export { toDiscordMessage } from './discord-message.ts';
export type { DiscordEmbed, DiscordMessageResponse } from './discord-message.ts';
