import packageJson from '../package.json' with { type: 'json' };

/** The CLI's version, read from its package.json so there is one place to bump it. */
export const VERSION: string = packageJson.version;
