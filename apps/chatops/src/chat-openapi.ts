import { MAX_CHAT_BODY_BYTES } from './app.ts';

/** RFC 9457 problem details, as the app answers a refusal (app.ts `problem`). */
const problem = (description: string) => ({
  description, content: { 'application/problem+json': { schema: { type: 'object', properties: { type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' }, detail: { type: 'string' } } } } },
});

/** What both endpoints refuse before any work (app.ts): no secret, no valid signature, a body too large or of another type. */
const refusals = (secret: string, otherType = 'The body is not of the platform\'s media type.') => ({
  401: problem('The signature is missing, stale (over 5 minutes) or wrong.'),
  413: problem(`The body is over ${MAX_CHAT_BODY_BYTES} bytes.`),
  415: problem(otherType),
  503: problem(`${secret} is not set in the runtime's environment: the endpoint is disabled.`),
});

/**
 * The chat bot's two endpoints as OpenAPI 3.1 path items, relative to where the app is mounted (the served API: /v1/chat).
 * They are called by Slack and Discord, which sign each request (Slack: HMAC-SHA256 with the signing secret,
 * https://api.slack.com/authentication/verifying-requests-from-slack; Discord: Ed25519,
 * https://discord.com/developers/docs/interactions/overview#setting-up-an-endpoint-validating-security-request-headers),
 * so the documentation lists them without a form to try them (`x-signed`: the docs page offers no "Try it").
 */
export const CHAT_OPENAPI_PATHS = {
  '/slack': {
    post: {
      operationId: 'chat-slack',
      summary: 'Slack slash command: ask trainplan a question (e.g. "how many nodes for 175B?")',
      description: 'The Request URL of a Slack slash command. Slack posts the command form, signed with X-Slack-Signature and '
        + 'X-Slack-Request-Timestamp; the answer is a Block Kit message. A question that runs a search is acknowledged at once '
        + '(in_channel) and answered at response_url. Slack\'s Events API (url_verification, app_mention) is not supported.',
      parameters: [
        { name: 'X-Slack-Signature', in: 'header', required: true, schema: { type: 'string' }, description: 'v0= and the hex HMAC-SHA256 of "v0:timestamp:body".' },
        { name: 'X-Slack-Request-Timestamp', in: 'header', required: true, schema: { type: 'string' }, description: 'Unix seconds; at most 5 minutes old.' },
      ],
      requestBody: {
        required: true,
        content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { text: { type: 'string', description: 'The question.' }, response_url: { type: 'string', format: 'uri' } } } } },
      },
      responses: { 200: { description: 'A Slack message (or, for a search, the acknowledgement).', content: { 'application/json': { schema: { type: 'object' } } } }, ...refusals('SLACK_SIGNING_SECRET', 'The body is not a form: a JSON body (Slack\'s Events API) is refused as not supported.') },
      'x-signed': true,
    },
  },
  '/discord': {
    post: {
      operationId: 'chat-discord',
      summary: 'Discord interactions endpoint: the /trainplan slash command',
      description: 'The application\'s Interactions Endpoint URL. Discord posts each interaction signed with X-Signature-Ed25519 '
        + 'and X-Signature-Timestamp; a PING is answered with a PONG, a command with a message (a search deferred, its answer '
        + 'sent as a follow-up). The command\'s question is its string option (type 3) named question.',
      parameters: [
        { name: 'X-Signature-Ed25519', in: 'header', required: true, schema: { type: 'string' }, description: 'Hex Ed25519 signature of timestamp + body.' },
        { name: 'X-Signature-Timestamp', in: 'header', required: true, schema: { type: 'string' } },
      ],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: 'A Discord interaction.' } } } },
      responses: { 200: { description: 'An interaction response.', content: { 'application/json': { schema: { type: 'object' } } } }, ...refusals('DISCORD_PUBLIC_KEY'), 400: problem('The body is not a Discord interaction.') },
      'x-signed': true,
    },
  },
} as const;
