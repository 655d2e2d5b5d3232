/**
 * The chat Worker's environment in the workerd suite (vitest.config.mts gives it to the chat Worker the API Worker's CHAT
 * binding reaches): its Slack signing secret, made up for the tests. DISCORD_PUBLIC_KEY is left unset, so the suite sees
 * the chat Worker's own environment answer through the binding (a 503 naming it).
 */
export const CHAT_WORKER_SLACK_SECRET = 'workerd-chat-worker-slack-secret';
